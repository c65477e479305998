import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256Of } from '../env/index';
import type { ContaminationReference } from '../taskpool/types';
import { writeContaminationReferences } from './contamination';
import {
  columnDescriptionDocuments,
  columnMeaningDocument,
  knowledgeDocuments,
  readTextLenient,
  schemaNotesDocument,
  slug,
  type GeneratedDocument,
} from './documents';
import type { BenchmarkCatalog, BenchmarkEntry, BenchmarkProvenance, PreparedBenchmarkEnvironment } from './types';

/**
 * Turns one benchmark entry into an ordinary environment folder — the data file (linked, or copied where links
 * are not allowed), Markdown documents generated from the benchmark's metadata, and under `.toffee/` the
 * contamination references and provenance — so every TOFFEE tool (profile, synthesize, the VS Code tree) opens it
 * like any folder.
 */

export const PROVENANCE_FILE = path.join('.toffee', 'benchmark.json');

/** Folder name of a prepared environment: `<kind>-<id>`, file-name safe. */
export function environmentFolderName(entry: BenchmarkEntry): string {
  return `${entry.kind}-${slug(entry.id, 'entry')}`;
}

/** Default place for prepared environments: `<benchmark>/.toffee/environments/` (hidden from loads of the benchmark). */
export function defaultEnvironmentsDir(catalog: BenchmarkCatalog): string {
  return path.join(catalog.root, '.toffee', 'environments');
}

function documentsFor(entry: BenchmarkEntry, notes: string[]): GeneratedDocument[] {
  const documents: GeneratedDocument[] = [];
  if (entry.sources.schema) documents.push(schemaNotesDocument(entry.sources.schema));
  if (entry.sources.descriptionDir) documents.push(...columnDescriptionDocuments(entry.sources.descriptionDir, notes));
  if (entry.sources.knowledgeBase) documents.push(...knowledgeDocuments(entry.sources.knowledgeBase, notes));
  if (entry.sources.columnMeanings) {
    const meanings = columnMeaningDocument(entry.sources.columnMeanings, notes);
    if (meanings) documents.push(meanings);
  }
  if (entry.sources.schemaText) documents.push({ file: 'schema.txt', text: readTextLenient(entry.sources.schemaText) });
  return documents;
}

/** Links `target` at `link` (a symbolic link, else a hard link), or copies it; says whether it linked. */
function linkOrCopy(target: string, link: string): boolean {
  try {
    fs.symlinkSync(target, link, 'file');
    return true;
  } catch {
    try {
      fs.linkSync(target, link);
      return true;
    } catch {
      fs.copyFileSync(target, link);
      return false;
    }
  }
}

/**
 * The contamination references of an entry: its benchmark questions, and the hashes of the files holding its
 * evaluation items (question files, answer workbooks). The data files it is built from are deliberately not
 * listed: the audit rejects tasks whose files match a listed hash, and every task of this environment reads them.
 */
export async function contaminationOf(catalog: BenchmarkCatalog, entry: BenchmarkEntry): Promise<ContaminationReference[]> {
  const fileHashes: string[] = [];
  for (const file of entry.evaluationFiles) {
    if (fs.existsSync(file)) fileHashes.push(await sha256Of(file));
  }
  return [{ source: `${entry.kind}:${entry.id}`, questions: entry.questions, fileHashes }];
}

/**
 * Writes the environment folder for `entry` under `environmentsDir` (replacing an earlier one TOFFEE prepared;
 * refusing to touch a non-empty folder it did not).
 */
export async function prepareBenchmarkEnvironment(
  catalog: BenchmarkCatalog,
  entry: BenchmarkEntry,
  environmentsDir = defaultEnvironmentsDir(catalog),
): Promise<PreparedBenchmarkEnvironment & { notes: string[] }> {
  const folder = path.join(path.resolve(environmentsDir), environmentFolderName(entry));
  if (fs.existsSync(folder)) {
    const ours = fs.existsSync(path.join(folder, PROVENANCE_FILE));
    if (!ours && fs.readdirSync(folder).length > 0) {
      throw new Error(`${folder} exists and was not prepared by TOFFEE; choose another output folder`);
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }
  fs.mkdirSync(folder, { recursive: true });
  const notes: string[] = [];
  const dataFiles: BenchmarkProvenance['dataFiles'] = [];
  for (const source of entry.dataFiles) {
    const file = path.basename(source);
    const linked = linkOrCopy(source, path.join(folder, file));
    dataFiles.push({ source, file, sha256: await sha256Of(source), linked });
  }
  const documents = documentsFor(entry, notes);
  for (const document of documents) {
    const target = path.join(folder, ...document.file.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, document.text.endsWith('\n') ? document.text : `${document.text}\n`);
  }
  const contamination = await contaminationOf(catalog, entry);
  writeContaminationReferences(folder, contamination);
  const provenance: BenchmarkProvenance = {
    kind: entry.kind,
    id: entry.id,
    benchmarkRoot: catalog.root,
    dataFiles,
    generatedDocuments: documents.map((d) => d.file),
    preparedAt: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(folder, PROVENANCE_FILE), `${JSON.stringify(provenance, null, 2)}\n`);
  return { entry, folder, contamination, provenance, notes };
}

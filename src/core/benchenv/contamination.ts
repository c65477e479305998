import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContaminationReference } from '../taskpool/types';

/**
 * Where an environment folder keeps the benchmark items generated tasks must not overlap:
 * `<environment root>/.toffee/contamination.json`, a JSON array of ContaminationReference. The loader skips
 * `.toffee/`, so the file never becomes part of the environment the agent sees.
 */
export const CONTAMINATION_FILE = path.join('.toffee', 'contamination.json');

export function contaminationFileOf(root: string): string {
  return path.join(root, CONTAMINATION_FILE);
}

export function writeContaminationReferences(root: string, references: ContaminationReference[]): string {
  const file = contaminationFileOf(root);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(references, null, 2)}\n`);
  return file;
}

function isReference(value: unknown): value is ContaminationReference {
  if (!value || typeof value !== 'object') return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item.source === 'string' &&
    Array.isArray(item.questions) &&
    item.questions.every((q) => typeof q === 'string') &&
    Array.isArray(item.fileHashes) &&
    item.fileHashes.every((h) => typeof h === 'string')
  );
}

/**
 * The references recorded for an environment folder; [] when there is no file. A malformed file is an error
 * (silently auditing against nothing would let benchmark questions through).
 */
export function readContaminationReferences(root: string): ContaminationReference[] {
  const file = contaminationFileOf(root);
  if (!fs.existsSync(file)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (!Array.isArray(parsed) || !parsed.every(isReference)) {
    throw new Error(`${file} is not a list of { source, questions, fileHashes } references`);
  }
  return parsed;
}

/**
 * The layers, checked from the code's own imports (TypeScript's import scanner, type-only imports included):
 * - src/core never imports vscode, react, src/host, src/cli, src/shared or the webview;
 * - src/shared imports only zod, itself and two import-free core files: the event vocabulary and the agent's
 *   observation text format (the pipe tables the panel reads back);
 * - the webview imports only its own files, src/shared and its browser packages;
 * - a core room imports only rooms below it, in the order the README's Layout section lists them (files directly
 *   in src/core are the ground floor: they import no room);
 * - no file of src/core or src/shared is part of an import circle.
 * Known exceptions, each with the issue that removes it, are listed in EXCEPTIONS; an exception that no longer
 * occurs fails the test too, so the list shrinks as the moves land.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const SRC = path.join(ROOT, 'src');
const CORE = path.join(SRC, 'core');

/** Import-free core files src/shared may use. */
const SHARED_MAY_IMPORT = ['src/core/store/vocabulary.ts', 'src/core/agent/render.ts'];

/** `from → to` room imports that run upward today, each removed by another piece of work. */
const EXCEPTIONS: Array<{ from: string; to: string; why: string }> = [];

interface Import {
  from: string;
  specifier: string;
  /** Repository-relative path of the imported file, for relative imports. */
  to?: string;
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full, pattern));
    else if (pattern.test(entry.name)) out.push(full);
  }
  return out;
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

function importsOf(file: string): Import[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map(({ fileName }) => {
    const to = fileName.startsWith('.') ? resolveRelative(file, fileName) : undefined;
    return { from: relative(file), specifier: fileName, to: to ? relative(to) : undefined };
  });
}

/** The core rooms in the README's Layout order, lowest first. */
function roomOrder(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const layout = /^## Layout\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
  const line = /rooms, lowest first:([\s\S]*?)\./.exec(layout)?.[1] ?? '';
  return [...line.matchAll(/([a-z]+)\//g)].map((m) => m[1]);
}

/** The room a core file belongs to ('' for a file directly in src/core). */
function roomOf(file: string): string {
  const inCore = file.slice('src/core/'.length);
  return inCore.includes('/') ? inCore.slice(0, inCore.indexOf('/')) : '';
}

function isException(from: string, to: string): boolean {
  return EXCEPTIONS.some((e) => from.startsWith(e.from) && to.startsWith(e.to));
}

const isPackage = (specifier: string) => !specifier.startsWith('.');
const isNodeBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]);

/** Import circles among `files`, each as its files in order. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

describe('layers: who may import whom', () => {
  const coreImports = filesUnder(CORE, /\.ts$/).flatMap(importsOf);
  const sharedImports = filesUnder(path.join(SRC, 'shared'), /\.ts$/).flatMap(importsOf);

  it('the README lists the core rooms in order, and every room on disk is listed', () => {
    const order = roomOrder();
    assert.ok(order.length >= 10, `the README's Layout section lists the rooms ("rooms, lowest first: text/, llm/, …"); found ${order.join(', ')}`);
    const onDisk = fs.readdirSync(CORE, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    assert.deepEqual(onDisk.filter((room) => !order.includes(room)), [], 'rooms missing from the README');
  });

  it('core imports neither vscode nor react, nor the host, the CLI, the webview or src/shared', () => {
    const wrong = coreImports.filter(({ specifier, to }) => {
      if (specifier === 'vscode' || specifier === 'react' || specifier.startsWith('react-') || specifier.startsWith('react/')) return true;
      return to !== undefined && !to.startsWith('src/core/');
    });
    assert.deepEqual(wrong.map((i) => `${i.from} imports ${i.to ?? i.specifier}`), []);
  });

  it('src/shared imports only zod, itself, the event vocabulary and the observation format, which import nothing', () => {
    const wrong = sharedImports.filter(({ specifier, to }) => {
      if (isPackage(specifier)) return specifier !== 'zod';
      return to === undefined || !(to.startsWith('src/shared/') || SHARED_MAY_IMPORT.includes(to));
    });
    assert.deepEqual(wrong.map((i) => `${i.from} imports ${i.to ?? i.specifier}`), []);
    for (const file of SHARED_MAY_IMPORT) assert.deepEqual(importsOf(path.join(ROOT, file)).map((i) => i.specifier), [], `${file} imports nothing`);
  });

  it('the webview imports only its own files, src/shared and browser packages', () => {
    const wrong = filesUnder(path.join(ROOT, 'webview', 'src'), /\.tsx?$/)
      .flatMap(importsOf)
      .filter(({ specifier, to }) => (isPackage(specifier) ? isNodeBuiltin(specifier) || specifier === 'vscode' : to === undefined || !(to.startsWith('webview/') || to.startsWith('src/shared/'))));
    assert.deepEqual(wrong.map((i) => `${i.from} imports ${i.to ?? i.specifier}`), []);
  });

  it('a core room imports only the rooms below it', () => {
    const order = roomOrder();
    const upward: string[] = [];
    const excepted = new Set<string>();
    for (const { from, to } of coreImports) {
      if (!to) continue;
      const [a, b] = [roomOf(from), roomOf(to)];
      if (a === b) continue;
      const rankA = a === '' ? -1 : order.indexOf(a);
      const rankB = b === '' ? -1 : order.indexOf(b);
      if (rankB < rankA) continue;
      if (isException(from, to)) {
        excepted.add(`${EXCEPTIONS.findIndex((e) => from.startsWith(e.from) && to.startsWith(e.to))}`);
        continue;
      }
      upward.push(`${from} (${a || 'src/core'}) imports ${to} (${b || 'src/core'}), a room above it`);
    }
    assert.deepEqual(upward, []);
    const stale = EXCEPTIONS.filter((_, i) => !excepted.has(String(i)));
    assert.deepEqual(stale.map((e) => `${e.from} → ${e.to}`), [], 'exceptions that no longer occur: remove them from the list');
  });

  it('no import circles in src/core and src/shared', () => {
    const graph = new Map<string, string[]>();
    for (const { from, to } of [...coreImports, ...sharedImports]) {
      if (!to) continue;
      graph.set(from, [...(graph.get(from) ?? []), to]);
    }
    assert.deepEqual(circles(graph).map((c) => c.join(' → ')), []);
  });
});

/**
 * `npm run probe:reliability`: bad inputs, damaged run folders, provider faults, sandbox attacks and kill -9 during
 * a real synthesis, each checked for what it must do (a diagnostic while the other files load; a refusal that
 * leaves every file as it was; a non-zero exit with the endpoint's words; the attack refused or contained; no
 * admitted trajectory lost). Prints one line per case and the counts per group.
 *
 *   node out/scripts/probeReliability.js [--kill-trials N] [--skip kill,sandbox,…]
 *
 * Run as root, the cases that need an unreadable file or folder (and a read-only data folder) run in a child
 * process as `nobody`, since root reads through any mode bits.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import initSqlJs from 'sql.js';
import { loadEnvironment, type DataEnvironment } from '../src/core/env/index';
import { PythonSandbox } from '../src/core/sandbox/PythonSandbox';
import { SqlSandbox } from '../src/core/sandbox/SqlSandbox';
import { readRun } from '../src/core/store/RunStore';
import { MockOpenAiServer, type MockBehaviour } from '../test/support/mockOpenAiServer';
import { hashFolder } from '../test/support/folderHash';
import { writeShopFolder } from '../test/unit/agentFixture';
import { writeZip, xlsxParts, sheetXml } from '../test/support/zipWriter';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'out', 'src', 'cli', 'main.js');
const SAMPLE = path.join(ROOT, 'media', 'samples', 'retail');
const AS_ROOT = process.getuid?.() === 0;
const UNPRIVILEGED = AS_ROOT ? { uid: 65534, gid: 65534 } : {};

interface Outcome {
  group: string;
  name: string;
  ok: boolean;
  detail: string;
}
const outcomes: Outcome[] = [];
function record(group: string, name: string, ok: boolean, detail: string): void {
  outcomes.push({ group, name, ok, detail });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${group.padEnd(9)} ${name.padEnd(44)} ${detail.replace(/\s+/g, ' ').slice(0, 150)}`);
}

function scratchDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `toffee-probe-${name}-`));
  fs.chmodSync(dir, 0o755);
  return dir;
}

function singleByte(text: string): Buffer {
  const cp1252: Record<string, number> = { '€': 0x80, '“': 0x93, '”': 0x94, '–': 0x96, '’': 0x92 };
  return Buffer.from([...text].map((ch) => cp1252[ch] ?? ch.charCodeAt(0)));
}

// ---------------------------------------------------------------------------------------------- bad inputs

interface InputCase {
  name: string;
  /** Files besides good.csv (always there, and it must load). */
  files: Record<string, string | Buffer>;
  setup?: (dir: string) => void;
  /** What the environment must show for the case to be handled. */
  check: (env: DataEnvironment) => Promise<string | true>;
  /** Needs the load to run without root's permissions. */
  unprivileged?: boolean;
}

function diagnosticFor(file: string, pattern: RegExp): (env: DataEnvironment) => Promise<string | true> {
  return async (env) => {
    const d = env.profile.diagnostics.find((x) => x.file === file);
    if (!d) return `no diagnostic for ${file}`;
    return pattern.test(d.message) ? true : `diagnostic: ${d.message}`;
  };
}

async function valueOf(env: DataEnvironment, sql: string): Promise<unknown> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(env.image);
  try {
    return db.exec(sql)[0]?.values[0]?.[0];
  } finally {
    db.close();
  }
}

function valueIs(sql: string, expected: unknown, note?: RegExp, file?: string): (env: DataEnvironment) => Promise<string | true> {
  return async (env) => {
    const value = await valueOf(env, sql);
    if (value !== expected) return `${sql} gave ${JSON.stringify(value)}, expected ${JSON.stringify(expected)}`;
    if (note && !env.profile.diagnostics.some((d) => d.file === file && note.test(d.message))) return `no note matching ${note} for ${file}`;
    return true;
  };
}

function inputCases(): InputCase[] {
  const random = Buffer.from(Array.from({ length: 30_000 }, (_, i) => (i * 2654435761) % 251));
  const latinRows = ['id,name'];
  for (let i = 1; i <= 2000; i++) latinRows.push(i === 1999 ? `${i},José Müller` : `${i},Person ${i}`);
  const heavy = ['word'];
  for (let i = 0; i < 3000; i++) heavy.push(`Ærøskøbing ééé ${i}`);
  const utf8Bad = Buffer.from('id,name\n1,Müller\n2,Zoë\n3,Ana\n', 'utf8');
  utf8Bad[utf8Bad.indexOf(Buffer.from('Ana'))] = 0xff;
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('city,n\nKöln,1\n', 'utf16le')]);
  const wide = [['id', ...Array.from({ length: 2500 }, (_, i) => `c${i}`)].join(',')];
  for (let r = 1; r <= 3; r++) wide.push([r, ...Array.from({ length: 2500 }, (_, i) => r * i)].join(','));
  const bombSheet = Buffer.from('<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row><c t="inlineStr"><is><t>h</t></is></c></row>' + '<row><c t="inlineStr"><is><t>x</t></is></c></row>'.repeat(900_000) + '</sheetData></worksheet>');
  const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
  return [
    { name: 'empty CSV', files: { 'empty.csv': '' }, check: diagnosticFor('empty.csv', /Empty file/) },
    { name: 'ragged CSV rows', files: { 'ragged.csv': 'a,b\n1,2\n3\n4,5,6\n' }, check: diagnosticFor('ragged.csv', /different number of fields/) },
    { name: 'unterminated quote', files: { 'quote.csv': 'a,b\n1,"open\n2,3\n' }, check: diagnosticFor('quote.csv', /Unterminated quoted field/) },
    { name: 'random bytes named .csv', files: { 'noise.csv': random }, check: diagnosticFor('noise.csv', /binary data/) },
    { name: 'gzip data named .csv', files: { 'packed.csv': zlib.gzipSync(Buffer.from('a,b\n'.repeat(5000))) }, check: diagnosticFor('packed.csv', /binary data/) },
    { name: 'binary named .md', files: { 'notes.md': random }, check: diagnosticFor('notes.md', /binary data/) },
    { name: 'latin-1, one row in 2,000', files: { 'people.csv': singleByte(latinRows.join('\n') + '\n') }, check: valueIs('SELECT name FROM people WHERE id = 1999', 'José Müller', /ISO-8859-1/, 'people.csv') },
    { name: 'latin-1, every row accented', files: { 'words.csv': singleByte(heavy.join('\n') + '\n') }, check: valueIs("SELECT word FROM words LIMIT 1", 'Ærøskøbing ééé 0', /ISO-8859-1/, 'words.csv') },
    { name: 'Windows-1252 quotes and euro', files: { 'shop.csv': singleByte('id,note\n1,“Best” – €5\n') }, check: valueIs('SELECT note FROM shop', '“Best” – €5', /Windows-1252/, 'shop.csv') },
    { name: 'UTF-8 with an invalid byte', files: { 'names.csv': utf8Bad }, check: diagnosticFor('names.csv', /lines 4\); each such byte was read as U\+FFFD/) },
    { name: 'UTF-16 LE with BOM', files: { 'u16.csv': utf16 }, check: valueIs('SELECT city FROM u16', 'Köln') },
    { name: 'UTF-8 BOM', files: { 'bom.csv': '\uFEFFid,v\n1,x\n' }, check: valueIs('SELECT v FROM bom', 'x') },
    { name: 'NUL bytes in a CSV', files: { 'nul.csv': Buffer.concat([Buffer.from('a\n'), Buffer.alloc(5000), Buffer.from('\n')]) }, check: diagnosticFor('nul.csv', /binary data/) },
    { name: 'invalid JSON', files: { 'bad.json': '{"a": [1, 2' }, check: async (env) => (env.profile.diagnostics.some((d) => d.file === 'bad.json' && d.severity === 'error') ? true : 'no error') },
    { name: 'JSON nested 5,000 deep', files: { 'deep.json': deep }, check: async (env) => (env.profile.diagnostics.some((d) => d.file === 'deep.json') || env.profile.tables.some((t) => t.sourceFile === 'deep.json') ? true : 'neither loaded nor diagnosed') },
    { name: 'JSONL with bad lines', files: { 'e.jsonl': '{"a":1}\nnot json\n{"a":2}\n' }, check: diagnosticFor('e.jsonl', /line/) },
    { name: 'truncated SQLite', files: { 'cut.sqlite': Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(300, 7)]) }, check: async (env) => (env.profile.diagnostics.some((d) => d.file === 'cut.sqlite' && d.severity === 'error') ? true : 'no error') },
    { name: 'text named .sqlite', files: { 'notes.sqlite': 'just text' }, check: async (env) => (env.profile.diagnostics.some((d) => d.file === 'notes.sqlite') ? true : 'no diagnostic') },
    { name: 'truncated xlsx', files: { 'cut.xlsx': writeZip(xlsxParts(sheetXml(50))).subarray(0, 600) }, check: async (env) => (env.profile.diagnostics.some((d) => d.file === 'cut.xlsx' && d.severity === 'error') ? true : 'no error') },
    { name: 'xlsx zip bomb', files: { 'bomb.xlsx': writeZip(xlsxParts(bombSheet)) }, check: diagnosticFor('bomb.xlsx', /zip bomb/) },
    { name: 'xlsx bomb that lies about sizes', files: { 'liar.xlsx': writeZip(xlsxParts(bombSheet), { 'xl/worksheets/sheet1.xml': 100 }) }, check: diagnosticFor('liar.xlsx', /though they declare/) },
    { name: 'legacy .xls named .xlsx', files: { 'old.xlsx': Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]) }, check: diagnosticFor('old.xlsx', /legacy binary Excel/) },
    { name: 'truncated Parquet', files: { 'cut.parquet': Buffer.from('PAR1xxxxxxxx') }, check: async (env) => (env.profile.diagnostics.some((d) => d.file === 'cut.parquet' && d.severity === 'error') ? true : 'no error') },
    { name: 'CSV with 2,501 columns', files: { 'wide.csv': wide.join('\n') + '\n' }, check: valueIs('SELECT w.c0 + p.c2499 FROM wide w JOIN wide_part2 p USING (_row_id) WHERE w.id = 2', 2 * 2499, /linked|join them on _row_id/, 'wide.csv') },
    { name: 'symbolic link to itself', files: {}, setup: (dir) => fs.symlinkSync('self.csv', path.join(dir, 'self.csv')), check: diagnosticFor('self.csv', /loop of symbolic links/) },
    { name: 'symbolic link ping-pong', files: {}, setup: (dir) => { fs.symlinkSync('pong', path.join(dir, 'ping')); fs.symlinkSync('ping', path.join(dir, 'pong')); }, check: diagnosticFor('ping', /loop of symbolic links/) },
    { name: 'link to a folder above', files: { 'sub/x.csv': 'x\n1\n' }, setup: (dir) => fs.symlinkSync('..', path.join(dir, 'sub', 'up')), check: diagnosticFor('sub/up', /a loop; not followed/) },
    { name: 'broken link', files: {}, setup: (dir) => fs.symlinkSync('missing.csv', path.join(dir, 'gone.csv')), check: diagnosticFor('gone.csv', /Broken symbolic link/) },
    { name: 'unreadable file', files: { 'locked.csv': 'a\n1\n' }, setup: (dir) => fs.chmodSync(path.join(dir, 'locked.csv'), 0o000), unprivileged: true, check: async (env) => (env.profile.diagnostics.some((d) => d.file === 'locked.csv' && d.severity === 'error') ? true : 'no error') },
    { name: 'unreadable sub-folder', files: { 'locked/a.csv': 'a\n1\n' }, setup: (dir) => fs.chmodSync(path.join(dir, 'locked'), 0o000), unprivileged: true, check: diagnosticFor('locked/', /Cannot read this folder \(permission denied\)/) },
    { name: 'a file name with a newline', files: { 'two\nlines.csv': 'a\n1\n' }, check: async (env) => (env.profile.tables.some((t) => t.sourceFile === 'two\nlines.csv') ? true : 'not loaded') },
    { name: 'a CSV with one 5 MB field', files: { 'long.csv': `a,b\n1,${'x'.repeat(5_000_000)}\n` }, check: valueIs('SELECT length(b) FROM long', 5_000_000) },
    { name: 'duplicate and blank headers', files: { 'h.csv': 'Name,name,,\n1,2,3,4\n' }, check: async (env) => (env.profile.tables.find((t) => t.name === 'h')?.columns.length === 4 ? true : 'columns lost') },
    { name: 'CR-only line endings', files: { 'mac.csv': 'a,b\r1,2\r3,4\r' }, check: valueIs('SELECT count(*) FROM mac', 2) },
    { name: 'Markdown in latin-1', files: { 'rules.md': singleByte('# Règles\n\nLes remises ne s’appliquent qu’aux commandes payées.\n') }, check: async (env) => (env.documents.find((d) => d.name === 'rules.md')?.title === 'Règles' ? true : `title ${env.documents.find((d) => d.name === 'rules.md')?.title}`) },
  ];
}

/** Child mode: loads each prepared case folder and prints what each check said, as JSON. */
async function runInputCasesHere(base: string, names: string[]): Promise<void> {
  const cases = inputCases();
  const results: Array<{ name: string; result: string | true; detail?: string }> = [];
  for (const name of names) {
    const testCase = cases.find((c) => c.name === name)!;
    const dir = path.join(base, String(cases.indexOf(testCase)));
    try {
      const env = await loadEnvironment(dir);
      const good = env.profile.tables.some((t) => t.name === 'good');
      const verdict = await testCase.check(env);
      const files = new Set([...Object.keys(testCase.files), ...env.profile.diagnostics.map((d) => d.file)].filter((f) => f !== 'good.csv'));
      const said = env.profile.diagnostics.filter((d) => files.has(d.file)).map((d) => `${d.severity} ${d.file}: ${d.message}`);
      const loaded = env.profile.tables.filter((t) => t.name !== 'good').map((t) => t.name);
      const detail = said.length ? said.join(' | ') : `loaded ${loaded.join(', ') || env.documents.map((d) => d.name).join(', ')}`;
      results.push({ name, result: good ? verdict : `the good file did not load (${verdict === true ? 'case itself fine' : verdict})`, detail });
    } catch (error) {
      results.push({ name, result: `the load threw: ${(error as Error).message.split('\n')[0]}` });
    }
  }
  process.stdout.write(JSON.stringify(results));
}

async function probeInputs(): Promise<void> {
  const base = scratchDir('inputs');
  const cases = inputCases();
  for (const [index, testCase] of cases.entries()) {
    const dir = path.join(base, String(index));
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'good.csv'), 'id,amount\n1,9.5\n2,3\n');
    for (const [name, content] of Object.entries(testCase.files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
    // World-readable, so the unprivileged child reads everything but what a case locks.
    spawnSync('chmod', ['-R', 'a+rX', dir]);
    testCase.setup?.(dir);
  }
  const run = (names: string[], unprivileged: boolean) => {
    const child = spawnSync(process.execPath, [__filename, '--inputs-child', base, JSON.stringify(names)], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 300_000, ...(unprivileged ? UNPRIVILEGED : {}) });
    if (child.status !== 0) throw new Error(`input child failed: ${child.stderr}`);
    return JSON.parse(child.stdout) as Array<{ name: string; result: string | true; detail?: string }>;
  };
  const results = [...run(cases.filter((c) => !c.unprivileged).map((c) => c.name), false), ...run(cases.filter((c) => c.unprivileged).map((c) => c.name), true)];
  for (const { name, result, detail } of results) record('input', name, result === true, result === true ? detail ?? '' : result);
  for (const [index] of cases.entries()) spawnSync('chmod', ['-R', 'u+rwX', path.join(base, String(index))]);
  fs.rmSync(base, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------- run folders

function cli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; unprivileged?: boolean; timeoutMs?: number } = {}): { status: number | null; stdout: string; stderr: string; ms: number } {
  const started = Date.now();
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 300_000, maxBuffer: 1 << 26, ...(options.unprivileged ? UNPRIVILEGED : {}) });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
}

function lines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

async function probeRunFolders(): Promise<void> {
  const base = scratchDir('runs');
  const data = path.join(base, 'data');
  fs.cpSync(SAMPLE, data, { recursive: true, filter: (src) => !src.includes('.toffee') });
  const finished = path.join(base, 'finished');
  const first = cli(['synthesize', data, '--tasks', '3', '--out', finished]);
  if (first.status !== 0) throw new Error(`the reference run failed: ${first.stderr}`);
  const damages: Array<[string, (dir: string) => void, boolean]> = [
    ['events.jsonl emptied', (dir) => fs.writeFileSync(path.join(dir, 'events.jsonl'), ''), false],
    ['events.jsonl deleted', (dir) => fs.rmSync(path.join(dir, 'events.jsonl')), false],
    ['lines cut from the middle', (dir) => { const l = lines(path.join(dir, 'events.jsonl')); fs.writeFileSync(path.join(dir, 'events.jsonl'), [...l.slice(0, 30), ...l.slice(80)].join('\n') + '\n'); }, false],
    ['the last half cut at a line end', (dir) => { const l = lines(path.join(dir, 'events.jsonl')); fs.writeFileSync(path.join(dir, 'events.jsonl'), l.slice(0, l.length >> 1).join('\n') + '\n'); }, false],
    ['the first lines cut', (dir) => { const l = lines(path.join(dir, 'events.jsonl')); fs.writeFileSync(path.join(dir, 'events.jsonl'), l.slice(4).join('\n') + '\n'); }, false],
    ['a corrupt line', (dir) => { const l = lines(path.join(dir, 'events.jsonl')); l[20] = l[20].replace('"', "'"); fs.writeFileSync(path.join(dir, 'events.jsonl'), l.join('\n') + '\n'); }, false],
    ['a duplicated line', (dir) => { const l = lines(path.join(dir, 'events.jsonl')); l.splice(20, 0, l[19]); fs.writeFileSync(path.join(dir, 'events.jsonl'), l.join('\n') + '\n'); }, false],
    ['the last task/finished removed', (dir) => { const l = lines(path.join(dir, 'events.jsonl')); const at = l.map((x) => JSON.parse(x).type).lastIndexOf('task/finished'); l.splice(at, 1); fs.writeFileSync(path.join(dir, 'events.jsonl'), l.map((x, i) => (i >= at ? x.replace(/"seq":(\d+)/, (_m, n) => `"seq":${Number(n) - 1}`) : x)).join('\n') + '\n'); }, false],
    ['a torn last line (a crash)', (dir) => { const text = fs.readFileSync(path.join(dir, 'events.jsonl'), 'utf8'); fs.writeFileSync(path.join(dir, 'events.jsonl'), text.slice(0, text.length - 40)); }, true],
    ['derived files deleted', (dir) => { fs.rmSync(path.join(dir, 'tasks.jsonl')); fs.rmSync(path.join(dir, 'trajectories.jsonl')); }, true],
  ];
  for (const [name, damage, resumable] of damages) {
    const dir = path.join(base, name.replace(/\W+/g, '-'));
    fs.cpSync(finished, dir, { recursive: true });
    damage(dir);
    const before = hashFolder(dir);
    const result = cli(['synthesize', '--resume', dir]);
    if (resumable) {
      const trajectories = fs.existsSync(path.join(dir, 'trajectories.jsonl')) ? lines(path.join(dir, 'trajectories.jsonl')).length : 0;
      const expected = lines(path.join(finished, 'trajectories.jsonl')).length;
      record('resume', name, result.status === 0 && trajectories === expected, `exit ${result.status}, ${trajectories}/${expected} trajectories${/torn last line/.test(result.stderr) ? ', torn-tail warning printed' : ''}`);
    } else {
      const same = JSON.stringify(hashFolder(dir)) === JSON.stringify(before);
      record('resume', name, result.status === 1 && same && /cannot resume/.test(result.stderr), `exit ${result.status}, files ${same ? 'unchanged' : 'CHANGED'}: ${result.stderr.split('\n').slice(1, 2).join(' ').trim()}`);
    }
  }
  // --out elsewhere and a read-only data folder.
  const beforeData = hashFolder(data);
  const elsewhere = cli(['synthesize', data, '--tasks', '2', '--out', path.join(base, 'elsewhere')]);
  record('folder', '--out elsewhere: data folder byte-identical', elsewhere.status === 0 && JSON.stringify(hashFolder(data)) === JSON.stringify(beforeData), `exit ${elsewhere.status}; ${/cost model: +(.*)/.exec(elsewhere.stdout)?.[1] ?? ''}`);
  const readOnly = path.join(base, 'ro');
  fs.cpSync(data, readOnly, { recursive: true });
  spawnSync('chmod', ['-R', 'a-w,a+rX', readOnly]);
  const outParent = scratchDir('ro-out');
  spawnSync('chmod', ['777', outParent]);
  const refused = cli(['synthesize', readOnly, '--tasks', '1'], { unprivileged: true });
  record('folder', 'read-only data folder without --out', refused.status === 1 && /read-only.*pass --out/.test(refused.stderr), refused.stderr.trim());
  const beforeRo = hashFolder(readOnly);
  const roRun = cli(['synthesize', readOnly, '--tasks', '1', '--out', path.join(outParent, 'run')], { unprivileged: true });
  record('folder', 'read-only data folder with --out', roRun.status === 0 && JSON.stringify(hashFolder(readOnly)) === JSON.stringify(beforeRo), `exit ${roRun.status}`);
  spawnSync('chmod', ['-R', 'u+w', readOnly]);
  fs.rmSync(outParent, { recursive: true, force: true });
  fs.rmSync(base, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------- providers

async function probeProviders(): Promise<void> {
  const base = scratchDir('providers');
  const data = writeShopFolder();
  const env = { ...process.env, OPENAI_API_KEY: 'sk-probe-0123456789abcdef' };
  const wrongAnswer = { kind: 'toolCalls' as const, calls: [{ name: 'final_answer', arguments: '{"answer": "17"}' }], usage: { prompt: 800, completion: 40 } };
  const cases: Array<{ name: string; behaviour: MockBehaviour; args: (url: string) => string[]; config?: (url: string) => unknown; expect: (r: ReturnType<typeof cli>, server: MockOpenAiServer, out: string) => string | true }> = [
    { name: 'every call HTTP 400', behaviour: { kind: 'error', status: 400, message: 'The model `x` does not exist' }, args: (u) => ['--provider', 'openai', '--base-url', u, '--models', 'gpt-4o-mini'], expect: (r) => (r.status === 1 && /does not exist/.test(r.stderr) ? true : `exit ${r.status}`) },
    { name: 'every call HTTP 401 (bad key)', behaviour: { kind: 'error', status: 401, message: 'Incorrect API key provided' }, args: (u) => ['--provider', 'openai', '--base-url', u, '--models', 'gpt-4o-mini'], expect: (r) => (r.status === 1 && /rejected the API key/.test(r.stderr) && !r.stderr.includes('sk-probe') ? true : `exit ${r.status}`) },
    { name: 'endpoint hangs (config timeout 300 ms)', behaviour: { kind: 'hang' }, args: () => ['--provider', 'local'], config: (u) => ({ providers: { local: { baseUrl: u, models: ['gpt-4o-mini'], timeoutMs: 300, maxRetries: 1 } } }), expect: (r) => (r.status === 1 && /within 300 ms/.test(r.stderr) && r.ms < 120_000 ? true : `exit ${r.status} after ${r.ms} ms`) },
    { name: 'unpriced model, no --max-calls', behaviour: wrongAnswer, args: (u) => ['--provider', 'openai', '--base-url', u, '--models', 'house-7b'], expect: (r, s) => (r.status === 1 && /No price is known/.test(r.stderr) && s.chatRequests.length === 0 ? true : `exit ${r.status}, ${s.chatRequests.length} calls`) },
    { name: 'unpriced model with --max-calls 8', behaviour: wrongAnswer, args: (u) => ['--provider', 'openai', '--base-url', u, '--models', 'house-7b', '--max-calls', '8'], expect: (r, s) => (r.status === 3 && s.chatRequests.length === 8 ? true : `exit ${r.status}, ${s.chatRequests.length} calls`) },
    { name: 'unpriced model with --price', behaviour: wrongAnswer, args: (u) => ['--provider', 'openai', '--base-url', u, '--models', 'house-7b', '--price', 'house-7b=20/40', '--budget', '0.05'], expect: (r, s) => (r.status === 0 && s.chatRequests.length <= 12 ? true : `exit ${r.status}, ${s.chatRequests.length} calls`) },
    { name: 'resumed on the simulated models', behaviour: wrongAnswer, args: (u) => ['--provider', 'openai', '--base-url', u, '--models', 'house-7b', '--max-calls', '3'], expect: (_r, _s, out) => {
      const resumed = cli(['synthesize', '--resume', out, '--provider', 'offline-sim'], { env });
      return resumed.status === 1 && /started on openai .*--provider openai --base-url/.test(resumed.stderr) ? true : `exit ${resumed.status}: ${resumed.stderr}`;
    } },
  ];
  for (const [index, testCase] of cases.entries()) {
    const server = await MockOpenAiServer.start({ defaultBehaviour: testCase.behaviour });
    const cwd = path.join(base, `cwd-${index}`);
    fs.mkdirSync(cwd);
    if (testCase.config) fs.writeFileSync(path.join(cwd, 'toffee.config.json'), JSON.stringify(testCase.config(server.baseUrl)));
    const out = path.join(base, `run-${index}`);
    // The CLI in a child, the mock endpoint in this process: awaited so the server keeps answering.
    const result = await new Promise<ReturnType<typeof cli>>((resolve) => {
      const started = Date.now();
      const child = spawn(process.execPath, [CLI, 'synthesize', data, '--tasks', '2', '--out', out, ...testCase.args(server.baseUrl)], { cwd, env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c));
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      child.on('exit', (status) => resolve({ status, stdout, stderr, ms: Date.now() - started }));
    });
    const verdict = testCase.expect(result, server, out);
    const said = result.stderr.split('\n').filter((l) => /toffee synthesize:/.test(l)).pop() ?? '';
    record('provider', testCase.name, verdict === true, verdict === true ? `exit ${result.status}, ${server.chatRequests.length} calls; ${said}` : verdict);
    await server.close();
  }
  fs.rmSync(data, { recursive: true, force: true });
  fs.rmSync(base, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------- sandboxes

async function probeSandboxes(): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run("CREATE TABLE t (id INTEGER, v TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b'); CREATE TABLE big AS WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 5000) SELECT i FROM c;");
  const image = db.export();
  db.close();
  const canary = path.join(os.tmpdir(), `toffee-probe-canary-${process.pid}`);
  const secret = 'probe-secret-value-0451';
  process.env.TOFFEE_PROBE_SECRET = secret;
  const sql = new SqlSandbox(image, { timeoutMs: 1500 });
  const python = new PythonSandbox(image, { timeoutMs: 2000 });
  const contained = (text: string) => !text.includes(secret) && !fs.existsSync(canary);
  const sqlAttacks: Array<[string, string]> = [
    ['ATTACH a host file', `ATTACH DATABASE '${canary}' AS x`],
    ['write: INSERT', "INSERT INTO t VALUES (3, 'c')"],
    ['write: DROP TABLE', 'DROP TABLE t'],
    ['PRAGMA writable_schema', 'PRAGMA writable_schema = 1'],
    ['load_extension', "SELECT load_extension('/lib/x.so')"],
    ['VACUUM INTO a host file', `VACUUM INTO '${canary}'`],
    ['endless recursive CTE', 'WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT count(*) FROM c'],
    ['cross join of large tables', 'SELECT count(*) FROM big a, big b, big c'],
    ['two statements', 'SELECT 1; DELETE FROM t'],
    ['huge string', "SELECT length(printf('%.*c', 2000000000, 'x'))"],
  ];
  for (const [name, query] of sqlAttacks) {
    const result = await sql.run(query);
    const after = await sql.run('SELECT count(*) FROM t');
    record('sandbox', `SQL: ${name}`, !result.ok && contained(JSON.stringify(result)) && after.ok && after.rows?.[0]?.[0] === 2, result.ok ? 'ran' : `${result.errorKind}: ${result.error?.slice(0, 90)}`);
  }
  // Each attack with what its output would show had it got through (beyond the canary file and the secret).
  const pythonAttacks: Array<[string, string, RegExp?]> = [
    ['open a host file', `open(${JSON.stringify(canary)}, "w").write("x")\nprint(open("/etc/passwd").read()[:20])`, /root:/],
    ['os.system', 'import os\nprint(os.system("touch ' + canary + '"))'],
    ['subprocess', 'import subprocess\nsubprocess.run(["touch", ' + JSON.stringify(canary) + '])'],
    ['socket', 'import socket\ns = socket.create_connection(("127.0.0.1", 22), timeout=1)\nprint("connected")', /connected/],
    ['urllib', 'import urllib.request\nprint(urllib.request.urlopen("http://127.0.0.1:9/").status)', /^\d{3}$/m],
    ['environment secret', 'import os\nprint(os.environ.get("TOFFEE_PROBE_SECRET"), dict(os.environ))'],
    ['js module reach', 'import js\nprint(js.process.env.TOFFEE_PROBE_SECRET)'],
    ['Function constructor', 'import js\nf = js.setTimeout.constructor("return process")\nprint(f().pid)', /^\d+$/m],
    ['eval through ctypes', `import ctypes\nctypes.CDLL(None).emscripten_run_script(b"require('fs').writeFileSync(${JSON.stringify(canary).replace(/"/g, "'")}, 'x')")`],
    ['pyodide_js loaders', 'import pyodide_js\npyodide_js.loadPackage("numpy")\nimport numpy\nprint("numpy")', /^numpy$/m],
    ['timer that exits later', 'import js\ndef boom():\n    raise SystemExit(9)\njs.setTimeout(boom, 10)'],
    ['asyncio task that exits later', 'import asyncio, os\nasync def f():\n    await asyncio.sleep(0.01)\n    os._exit(4)\nasyncio.ensure_future(f())'],
    ['endless loop', 'while True: pass'],
    ['memory bomb', 'x = []\nwhile True:\n    x.append(bytearray(10**7))'],
    ['sys.exit', 'import sys\nsys.exit(2)'],
    ['os._exit', 'import os\nos._exit(3)'],
  ];
  for (const [name, code, shows] of pythonAttacks) {
    const result = await python.run(code);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await python.run('print(sum(r["id"] for r in sql("SELECT id FROM t")))');
    const escaped = result.ok && shows !== undefined && shows.test(result.stdout ?? '');
    record('sandbox', `Python: ${name}`, !escaped && contained(JSON.stringify(result)) && after.ok && after.stdout === '3\n', `${result.ok ? `ran, contained (${(result.stdout ?? '').trim().slice(0, 60)})` : `${result.errorKind}: ${(result.error ?? '').slice(0, 80)}`}; next call ${after.ok ? 'fine' : after.error}`);
  }
  await sql.dispose();
  await python.dispose();
  fs.rmSync(canary, { force: true });
  delete process.env.TOFFEE_PROBE_SECRET;
}

// ---------------------------------------------------------------------------------------------- kill -9

/** Runs the synthesis in a child; kills it `atMs` after the start, or `afterFolderMs` after its run folder appears. */
function runUntilKilled(args: string[], out: string, kill: { atMs?: number; afterFolderMs?: number }): Promise<{ folderAtMs?: number; totalMs: number; killed: boolean }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
    let folderAtMs: number | undefined;
    let killed = false;
    const killNow = () => {
      if (child.exitCode === null) {
        killed = true;
        child.kill('SIGKILL');
      }
    };
    const timer = kill.atMs !== undefined ? setTimeout(killNow, kill.atMs) : undefined;
    const poll = setInterval(() => {
      if (folderAtMs === undefined && fs.existsSync(path.join(out, 'run.json'))) {
        folderAtMs = Date.now() - started;
        if (kill.afterFolderMs !== undefined) setTimeout(killNow, kill.afterFolderMs);
      }
    }, 10);
    child.on('exit', () => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ folderAtMs, totalMs: Date.now() - started, killed });
    });
  });
}

async function probeKills(trials: number): Promise<void> {
  const base = scratchDir('kill');
  const data = path.join(base, 'data');
  fs.cpSync(SAMPLE, data, { recursive: true, filter: (src) => !src.includes('.toffee') });
  const reference = path.join(base, 'reference');
  const args = (out: string) => ['synthesize', data, '--tasks', '8', '--seed', '7', '--out', out, '--cost-model', 'fresh'];
  const ref = await runUntilKilled(args(reference), reference, {});
  if (!fs.existsSync(path.join(reference, 'trajectories.jsonl'))) throw new Error('the reference run failed');
  const referenceIds = lines(path.join(reference, 'trajectories.jsonl')).map((l) => JSON.parse(l).trajectoryId as string).sort();
  const poolMs = ref.folderAtMs ?? ref.totalMs / 2;
  const exploreMs = ref.totalMs - poolMs;
  console.log(`  reference run: the run folder appeared after ${poolMs} ms (the task pool built), done after ${ref.totalMs} ms, ${referenceIds.length} trajectories`);
  let lost = 0;
  let unresumable = 0;
  for (let trial = 0; trial < trials; trial++) {
    // Two kills while the task pool is built, the rest spread over the exploration.
    const during = trial < 2;
    const kill = during ? { atMs: Math.round(poolMs * (trial === 0 ? 0.4 : 0.97)) } : { afterFolderMs: Math.round(((trial - 2 + 0.5) / (trials - 2)) * exploreMs * 0.85) };
    const when = during ? `${kill.atMs} ms in (task pool)` : `${kill.afterFolderMs} ms after the folder`;
    const out = path.join(base, `trial-${trial}`);
    const run = await runUntilKilled(args(out), out, kill);
    if (!run.killed) {
      record('kill -9', `trial ${trial + 1}, ${when}`, true, 'the run ended before the kill');
      continue;
    }
    const staged = fs.readdirSync(base).filter((n) => n.startsWith(`.trial-${trial}.creating`));
    if (!fs.existsSync(out)) {
      record('kill -9', `trial ${trial + 1}, ${when}`, true, `killed before the run folder appeared (${staged.length} staging folder left); nothing to lose`);
      continue;
    }
    const admittedBefore = readRun(out).events.filter((e) => e.type === 'trajectory/admitted').map((e) => (e as { trajectoryId: string }).trajectoryId);
    const resumed = cli(['synthesize', '--resume', out]);
    if (resumed.status !== 0) {
      unresumable++;
      record('kill -9', `trial ${trial + 1}, ${when}`, false, `resume exit ${resumed.status}: ${resumed.stderr.trim().split('\n').pop()}`);
      continue;
    }
    const after = lines(path.join(out, 'trajectories.jsonl')).map((l) => JSON.parse(l).trajectoryId as string).sort();
    const missing = admittedBefore.filter((id) => !after.includes(id));
    lost += missing.length;
    const admittedEvents = readRun(out).events.filter((e) => e.type === 'trajectory/admitted').map((e) => (e as { trajectoryId: string }).trajectoryId);
    const duplicates = admittedEvents.length - new Set(admittedEvents).size;
    const same = JSON.stringify(after) === JSON.stringify(referenceIds);
    record('kill -9', `trial ${trial + 1}, ${when}`, missing.length === 0 && duplicates === 0 && same, `${admittedBefore.length} admitted at the kill, ${after.length} after the resume (${same ? 'same as the uninterrupted run' : 'DIFFERENT from the uninterrupted run'}), ${missing.length} lost, ${duplicates} duplicate admitted events`);
  }
  console.log(`  kill -9: ${trials} trials, ${lost} admitted trajectories lost, ${unresumable} folders that could not be resumed`);
  fs.rmSync(base, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------- main

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--inputs-child') return runInputCasesHere(args[1], JSON.parse(args[2]) as string[]);
  const skip = new Set((args[args.indexOf('--skip') + 1] ?? '').split(',').filter(() => args.includes('--skip')));
  const trials = args.includes('--kill-trials') ? Number(args[args.indexOf('--kill-trials') + 1]) : 11;
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run compile-tests first`);
  console.log(`TOFFEE reliability probe (node ${process.version}, ${AS_ROOT ? 'as root; permission cases as nobody' : 'as this user'})`);
  const groups: Array<[string, () => Promise<void>]> = [
    ['inputs', probeInputs],
    ['runs', probeRunFolders],
    ['providers', probeProviders],
    ['sandbox', probeSandboxes],
    ['kill', () => probeKills(trials)],
  ];
  for (const [name, probe] of groups) {
    if (skip.has(name)) continue;
    console.log(`\n${name}`);
    await probe();
  }
  console.log('\nsummary');
  const byGroup = new Map<string, Outcome[]>();
  for (const o of outcomes) byGroup.set(o.group, [...(byGroup.get(o.group) ?? []), o]);
  for (const [group, list] of byGroup) console.log(`  ${group.padEnd(9)} ${list.filter((o) => o.ok).length}/${list.length} handled`);
  const failed = outcomes.filter((o) => !o.ok);
  console.log(failed.length === 0 ? '  every case handled' : `  ${failed.length} not handled: ${failed.map((o) => `${o.group}: ${o.name}`).join('; ')}`);
  process.exitCode = failed.length === 0 ? 0 : 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 70;
});

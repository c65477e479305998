import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ExcelJS from 'exceljs';
import initSqlJs from 'sql.js';
import { CliError } from '../../src/cli/command';
import { benchEnvCommand } from '../../src/cli/commands/benchEnv';
import { sqlWasmPath } from '../../src/core/assets';
import {
  openBenchmarkEnvironment,
  readContaminationReferences,
  sampleEntries,
  scanBenchmark,
  type BenchmarkEntry,
} from '../../src/core/benchenv/index';
import { auditContamination } from '../../src/core/taskpool/contamination';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { queryImage } from '../support/envFixtures';

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function write(root: string, file: string, content: string | Buffer | Uint8Array): string {
  const full = path.join(root, ...file.split('/'));
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, content);
  return full;
}

async function sqliteBytes(sql: string): Promise<Uint8Array> {
  const SQL = await initSqlJs({ locateFile: () => sqlWasmPath() });
  const db = new SQL.Database();
  try {
    db.run(sql);
    return db.export();
  } finally {
    db.close();
  }
}

const CONCERT_SQL = `
  CREATE TABLE singer (Singer_ID INTEGER PRIMARY KEY, Name TEXT, Country TEXT, Age INTEGER);
  CREATE TABLE concert (concert_ID INTEGER PRIMARY KEY, concert_Name TEXT, Year TEXT, Singer_ID INTEGER REFERENCES singer(Singer_ID));
  INSERT INTO singer VALUES (1, 'Joe Sharp', 'Netherlands', 52), (2, 'Timbaland', 'United States', 32), (3, 'Justin Brown', 'France', 29);
  INSERT INTO concert VALUES (1, 'Auditions', '2014', 1), (2, 'Super bootcamp', '2014', 2), (3, 'Home Visits', '2015', 2);`;

const CONCERT_QUESTIONS = ['How many singers do we have?', 'What is the average age of singers from France?'];

/** A Spider-layout folder: tables.json, train/dev question files, database/<db_id>/<db_id>.sqlite (+ a duplicate). */
async function spiderFolder(root: string): Promise<void> {
  write(
    root,
    'tables.json',
    JSON.stringify([
      {
        db_id: 'concert_singer',
        table_names_original: ['singer', 'concert'],
        table_names: ['singer', 'concert'],
        column_names_original: [[-1, '*'], [0, 'Singer_ID'], [0, 'Name'], [0, 'Country'], [0, 'Age'], [1, 'concert_ID'], [1, 'concert_Name'], [1, 'Year'], [1, 'Singer_ID']],
        column_names: [[-1, '*'], [0, 'singer id'], [0, 'name'], [0, 'country'], [0, 'age'], [1, 'concert id'], [1, 'concert name'], [1, 'year'], [1, 'singer id']],
        column_types: ['text', 'number', 'text', 'text', 'number', 'number', 'text', 'text', 'number'],
        primary_keys: [1, 5],
        foreign_keys: [[8, 1]],
      },
      {
        db_id: 'car_1',
        table_names_original: ['cars'],
        column_names_original: [[-1, '*'], [0, 'Id'], [0, 'Maker']],
        column_types: ['text', 'number', 'text'],
        primary_keys: [1],
        foreign_keys: [],
      },
    ]),
  );
  write(root, 'train_spider.json', JSON.stringify([{ db_id: 'concert_singer', question: CONCERT_QUESTIONS[0], query: 'SELECT count(*) FROM singer' }]));
  write(
    root,
    'dev.json',
    JSON.stringify([
      { db_id: 'concert_singer', question: CONCERT_QUESTIONS[1], query: "SELECT avg(Age) FROM singer WHERE Country = 'France'" },
      { db_id: 'car_1', question: 'How many car makers are there?', query: 'SELECT count(*) FROM cars' },
      { db_id: 'missing_db', question: 'Where is this database?', query: 'SELECT 1' },
    ]),
  );
  const concert = await sqliteBytes(CONCERT_SQL);
  write(root, 'database/concert_singer/concert_singer.sqlite', concert);
  write(root, 'database/concert_singer/schema.sql', CONCERT_SQL);
  write(root, 'database/car_1/car_1.sqlite', await sqliteBytes("CREATE TABLE cars (Id INTEGER PRIMARY KEY, Maker TEXT); INSERT INTO cars VALUES (1, 'amc');"));
  write(root, 'test_database/concert_singer/concert_singer.sqlite', concert);
}

function task(id: string, question: string, tables: string[]): TaskSpec {
  return {
    id,
    family: 'test',
    question,
    answer: { type: 'number', value: 3, tolerance: 0 },
    evidence: [],
    difficulty: { steps: 1, tables: 1, joins: 0, aggregation: true, window: false, python: false, level: 'easy' },
    tables,
  };
}

describe('benchmark environments', () => {
  let root: string;
  let out: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-bench-'));
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-bench-out-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('lists Spider databases with schema sizes and questions, noting duplicates and orphan questions', async () => {
    await spiderFolder(root);
    const catalog = scanBenchmark(root);
    assert.equal(catalog.kind, 'spider');
    assert.deepEqual(
      catalog.entries.map((e) => [e.id, e.kind, e.domain, e.tables, e.columns, e.questions.length]),
      [
        ['car_1', 'spider', 'car', 1, 2, 1],
        ['concert_singer', 'spider', 'concert_singer', 2, 8, 2],
      ],
    );
    const notes = catalog.notes.join('\n');
    assert.match(notes, /test_database\/concert_singer: database 'concert_singer' appears again/);
    assert.match(notes, /missing_db: questions found but no database folder/);
  });

  it('opens a Spider database as an environment with schema notes and contamination references the audit uses', async () => {
    await spiderFolder(root);
    const opened = await openBenchmarkEnvironment(root, 'concert_singer', { environmentsDir: out });
    assert.equal(opened.folder, path.join(out, 'spider-concert_singer'));
    const profile = opened.environment.profile;
    assert.deepEqual(profile.tables.map((t) => [t.name, t.rowCount]), [['concert', 3], ['singer', 3]]);
    assert.deepEqual(profile.documents.map((d) => d.name), ['schema_notes.md']);
    assert.deepEqual(profile.documents[0].headings, ['Schema notes: concert_singer', 'singer', 'concert']);
    const notes = opened.environment.documents[0].sections.find((s) => s.heading === 'concert')!.text;
    assert.match(notes, /foreign key: `concert.Singer_ID` → `singer.Singer_ID`/);
    assert.deepEqual(await queryImage(opened.environment.image, "SELECT avg(Age) FROM singer WHERE Country = 'France'"), [[29]]);

    const references = readContaminationReferences(opened.folder);
    assert.deepEqual(references, opened.contamination);
    assert.equal(references.length, 1);
    assert.equal(references[0].source, 'spider:concert_singer');
    assert.deepEqual([...references[0].questions].sort(), [...CONCERT_QUESTIONS].sort());
    // Question files are listed; the database the environment is built from is not (or every task would be rejected).
    assert.deepEqual([...references[0].fileHashes].sort(), [sha256(path.join(root, 'dev.json')), sha256(path.join(root, 'train_spider.json'))].sort());

    const tasks = [
      task('copied', 'What is the average age of singers from France?', ['singer']),
      task('fresh', 'Which singer performed in the most concerts held in 2014?', ['singer', 'concert']),
    ];
    const rejected = auditContamination(tasks, profile, references);
    assert.deepEqual([...rejected.keys()], ['copied']);
    assert.match(rejected.get('copied')!, /spider:concert_singer/);
  });

  it('turns BIRD column description CSVs into documents (not tables), decoding Latin-1', async () => {
    write(root, 'dev/dev.json', JSON.stringify([{ question_id: 0, db_id: 'california_schools', question: 'What is the highest eligible free rate in Alameda County?', evidence: 'rate = count / enrollment', SQL: 'SELECT 1', difficulty: 'simple' }]));
    write(root, 'dev/dev_databases/california_schools/california_schools.sqlite', await sqliteBytes("CREATE TABLE frpm (CDSCode TEXT PRIMARY KEY, `County Name` TEXT, Enrollment INTEGER); INSERT INTO frpm VALUES ('01', 'Alameda', 100);"));
    const csv = 'original_column_name,column_name,column_description,data_format,value_description\nCDSCode,CDS code,County-District-School code,text,\nCounty Name,,County name (Comté),text,"Alameda, Alpine, …"\n';
    write(root, 'dev/dev_databases/california_schools/database_description/frpm.csv', Buffer.from(csv.replace('…', '...'), 'latin1'));
    const catalog = scanBenchmark(root);
    assert.equal(catalog.kind, 'bird');
    const opened = await openBenchmarkEnvironment(root, 'california_schools', { environmentsDir: out, catalog });
    const profile = opened.environment.profile;
    assert.deepEqual(profile.tables.map((t) => t.name), ['frpm']);
    assert.deepEqual(profile.documents.map((d) => [d.name, d.headings]), [['descriptions/frpm.md', ['Column descriptions: frpm', 'CDSCode', 'County Name']]]);
    const county = opened.environment.documents[0].sections.find((s) => s.heading === 'County Name')!.text;
    assert.match(county, /Description: County name \(Comté\)/);
    assert.match(county, /Values: Alameda, Alpine, \.\.\./);
    assert.deepEqual(opened.contamination[0].questions, ['What is the highest eligible free rate in Alameda County?']);
  });

  it('turns a LiveSQLBench-style knowledge base and column meanings into documents', async () => {
    write(
      root,
      'livesqlbench_data.jsonl',
      [
        { instance_id: 'alien_1', selected_database: 'alien', query: 'Show me the signals with a high Signal Quality Index.', normal_query: 'List signals whose SQI exceeds 0.8.' },
        { instance_id: 'solar_1', selected_database: 'solar', query: 'Which panels degrade fastest?' },
      ]
        .map((item) => JSON.stringify(item))
        .join('\n'),
    );
    write(root, 'alien/alien.sqlite', await sqliteBytes('CREATE TABLE signals (id INTEGER PRIMARY KEY, snr REAL, noise REAL); INSERT INTO signals VALUES (1, 12.5, 0.5), (2, 3.0, 2.0);'));
    write(
      root,
      'alien/alien_kb.jsonl',
      [
        { id: 0, knowledge: 'Signal Quality Index (SQI)', description: 'How clean a signal is.', definition: 'SQI = snr / (snr + noise)', type: 'calculation_knowledge', children_knowledge: -1 },
        { id: 1, knowledge: 'High-quality signal', description: 'A signal worth analysing.', definition: 'SQI > 0.8', type: 'domain_knowledge', children_knowledge: [0] },
      ]
        .map((item) => JSON.stringify(item))
        .join('\n') + '\n{not json\n',
    );
    write(root, 'alien/alien_column_meaning_base.json', JSON.stringify({ 'alien|signals|snr': 'Signal-to-noise ratio in dB.', 'alien|signals|noise': 'Noise floor.' }));
    write(root, 'alien/alien_schema.txt', 'CREATE TABLE signals (id INTEGER, snr REAL, noise REAL);');
    write(root, 'solar/solar_kb.jsonl', '{"id":0,"knowledge":"x"}\n');

    const catalog = scanBenchmark(root);
    assert.equal(catalog.kind, 'livesqlbench');
    assert.deepEqual(catalog.entries.map((e) => [e.id, e.tables, e.columns]), [['alien', 1, 2]]);
    assert.match(catalog.notes.join('\n'), /solar: knowledge base without a solar\.sqlite database/);
    const opened = await openBenchmarkEnvironment(root, 'alien', { environmentsDir: out, catalog });
    const documents = opened.environment.profile.documents;
    assert.deepEqual(
      documents.map((d) => d.name),
      ['column_meanings.md', 'knowledge/000_signal_quality_index_sqi.md', 'knowledge/001_high_quality_signal.md', 'schema.txt'],
    );
    const high = opened.environment.documents.find((d) => d.name === 'knowledge/001_high_quality_signal.md')!;
    assert.equal(high.title, 'High-quality signal');
    assert.deepEqual(high.sections.map((s) => [s.heading, s.text]).slice(1), [
      ['Description', 'A signal worth analysing.'],
      ['Definition', 'SQI > 0.8'],
      ['Builds on', 'Knowledge ids 0.'],
    ]);
    assert.match(opened.notes.join('\n'), /alien_kb\.jsonl:3: not valid JSON/);
    assert.deepEqual(opened.contamination[0].questions, ['Show me the signals with a high Signal Quality Index.', 'List signals whose SQI exceeds 0.8.']);
  });

  it('makes each SpreadsheetBench instruction\'s input workbook an environment, recording answer workbooks as contamination', async () => {
    const workbook = async (value: number) => {
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('Data');
      sheet.addRow(['Item', 'Qty']);
      sheet.addRow(['pens', value]);
      return Buffer.from(await book.xlsx.writeBuffer());
    };
    write(
      root,
      'data/dataset.json',
      JSON.stringify([
        { id: '59196', instruction: 'Sum the quantities in column B into cell D2.', spreadsheet_path: 'spreadsheet/59196', instruction_type: 'Cell-Level Manipulation', answer_position: 'D2' },
        { id: '404', instruction: 'Missing files.', spreadsheet_path: 'spreadsheet/404', instruction_type: 'Sheet-Level Manipulation', answer_position: 'A1' },
      ]),
    );
    write(root, 'data/spreadsheet/59196/1_59196_input.xlsx', await workbook(3));
    const answer = write(root, 'data/spreadsheet/59196/1_59196_answer.xlsx', await workbook(99));
    write(root, 'data/spreadsheet/59196/2_59196_input.xlsx', await workbook(4));
    const catalog = scanBenchmark(root);
    assert.equal(catalog.kind, 'spreadsheetbench');
    assert.deepEqual(catalog.entries.map((e) => [e.id, e.domain]), [['59196', 'cell-level manipulation']]);
    assert.match(catalog.notes.join('\n'), /SpreadsheetBench 404: spreadsheet path 'spreadsheet\/404' not found/);
    const opened = await openBenchmarkEnvironment(root, '59196', { environmentsDir: out, catalog });
    const profile = opened.environment.profile;
    assert.deepEqual(profile.files.map((f) => f.file), ['1_59196_input.xlsx']);
    assert.deepEqual(await queryImage(opened.environment.image, 'SELECT item, qty FROM t_1_59196_input'), [['pens', 3]]);
    assert.equal(profile.tables[0].columns[1].origin?.label, '1_59196_input.xlsx › Data › Qty');
    assert.deepEqual(opened.contamination[0].questions, ['Sum the quantities in column B into cell D2.']);
    assert.ok(opened.contamination[0].fileHashes.includes(sha256(answer)), 'the answer workbook hash is recorded');
  });

  it('samples environments spread over schema size and domain, the same for the same seed', () => {
    const entry = (id: string, columns: number): BenchmarkEntry => ({
      kind: 'spider',
      id,
      domain: id.replace(/_\d+$/, ''),
      dataFiles: [],
      columns,
      sizeBytes: 0,
      questions: [],
      evaluationFiles: [],
      sources: {},
    });
    const entries = [entry('car_1', 10), entry('car_2', 11), entry('pets_1', 12), entry('flight_1', 40), entry('flight_2', 42), entry('wta_1', 45), entry('college_1', 90), entry('college_2', 95), entry('bank_1', 99)];
    const first = sampleEntries(entries, 3, 7);
    assert.deepEqual(sampleEntries(entries, 3, 7), first);
    assert.equal(first.length, 3);
    // One from each third of the size range, all different domains.
    assert.ok(first[0].columns! <= 12 && first[1].columns! >= 40 && first[1].columns! <= 45 && first[2].columns! >= 90, JSON.stringify(first.map((e) => e.id)));
    assert.equal(new Set(first.map((e) => e.domain)).size, 3);
    const seeds = new Set(Array.from({ length: 12 }, (_, seed) => sampleEntries(entries, 3, seed).map((e) => e.id).join(',')));
    assert.ok(seeds.size > 1, 'different seeds give different samples');
    assert.equal(sampleEntries(entries, 20, 1).length, entries.length);
    assert.throws(() => sampleEntries(entries, 0, 1), /positive integer/);
  });

  it('toffee bench-env lists, picks and samples, with one-line errors', async () => {
    await spiderFolder(root);
    const run = async (argv: string[]) => {
      const lines: string[] = [];
      const original = console.log;
      console.log = (...args: unknown[]) => lines.push(args.join(' '));
      try {
        return { code: await benchEnvCommand.run(argv), output: lines.join('\n') };
      } finally {
        console.log = original;
      }
    };
    const listed = await run([root]);
    assert.equal(listed.code, 0);
    assert.match(listed.output, /^concert_singer\s+spider\s+concert_singer\s+2\s+8\s+2\s+\d+$/m);

    const picked = await run([root, '--pick', 'concert_singer', '--out', out]);
    assert.match(picked.output, /2 table\(s\), 6 row\(s\), 1 document\(s\), 0 problem\(s\)/);
    assert.match(picked.output, /2 benchmark question\(s\) recorded in .*contamination\.json/);

    const sampled = await run([root, '--sample', '2', '--seed', '5', '--out', out, '--json']);
    const parsed = JSON.parse(sampled.output) as { environments: Array<{ id: string; folder: string }> };
    assert.deepEqual(parsed.environments.map((e) => e.id).sort(), ['car_1', 'concert_singer']);
    for (const environment of parsed.environments) assert.ok(fs.existsSync(path.join(environment.folder, '.toffee', 'contamination.json')));

    await assert.rejects(run([root, '--pick', 'nope']), (e: unknown) => e instanceof CliError && /no environment 'nope'.*available: car_1, concert_singer/.test(e.message));
    await assert.rejects(run([root, '--pick', 'car_1', '--sample', '1']), (e: unknown) => e instanceof CliError && e.exitCode === 2);
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-bench-empty-'));
    try {
      await assert.rejects(run([empty]), (e: unknown) => e instanceof CliError && /no benchmark environments found/.test(e.message));
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataEnvironment, TableProfile } from '../../src/core/env/types';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';
import { loadFiles, makeFolder, queryImage } from '../support/envFixtures';

const PUBLIC = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public');
const vendored = (file: string) => fs.readFileSync(path.join(PUBLIC, ...file.split('/')));

const tableOf = (env: DataEnvironment, name: string): TableProfile => {
  const table = env.profile.tables.find((t) => t.name === name);
  assert.ok(table, `${name} in ${env.profile.tables.map((t) => t.name).join(', ')}`);
  return table;
};
const columnOf = (table: TableProfile, name: string) => {
  const column = table.columns.find((c) => c.originalName === name || c.name === name);
  assert.ok(column, `${name} in ${table.columns.map((c) => c.originalName).join(', ')}`);
  return column;
};
const messages = (env: DataEnvironment) => env.profile.diagnostics.map((d) => `${d.severity} ${d.message}`).join('\n');

describe('env: leading zeros, percentages, statistical periods and missing-value marks', function () {
  this.timeout(120_000);

  it("reads the aviation daily report's percentages as numbers with their unit, and counts with a stray leading zero as numbers", async () => {
    const env = await loadFiles({ 'daily.csv': vendored('india-aviation-traffic/data/aggregated/daily.csv') });
    const daily = tableOf(env, 'daily');
    // Before: every percent column and the count columns holding `04` were text.
    const onTime = columnOf(daily, 'On Time Performance (Air Asia)');
    assert.deepEqual([onTime.type, onTime.unit, onTime.min, onTime.max], ['real', '%', 26.4, 100]);
    assert.equal(daily.columns.filter((c) => c.unit === '%').length, 14);
    // One cell says `On`, another `84..1%`: those two columns stay text, as the file writes them.
    assert.deepEqual([columnOf(daily, 'On Time Performance (Air India)').type, columnOf(daily, 'Passenger Load Factor (Spicejet)').type], ['text', 'text']);
    for (const name of ['Grievances (Baggage)', 'Grievances (Air India)', 'Skilling by RGNAU (Number Of Courses)']) assert.equal(columnOf(daily, name).type, 'integer', name);
    // Two-digit values throughout, `05` among `11` and `57`: nothing tells a count from a code, so it stays text.
    assert.equal(columnOf(daily, 'Flying Training Organizations (Upcoming Ftos)').type, 'text');
    const text = messages(env);
    assert.match(text, /14 columns 'On Time Performance \(Air Asia\)'.* hold percentages written with % \(90\.6%\): stored as numbers \(90\.6\), the unit % kept/);
    assert.match(text, /Leading zeros read as numbers \(04 → 4\) in 11 numeric columns 'Grievances \(Air India\)'/);
    const name = onTime.name;
    assert.deepEqual(await queryImage(env.image, `SELECT typeof(${name}), count(*) FROM daily WHERE ${name} IS NOT NULL GROUP BY 1`), [['real', 683]]);
    assert.deepEqual(await queryImage(env.image, `SELECT ${name} FROM daily WHERE date = '2021-07-30'`), [[90.6]]);
  });

  it('keeps the % as the unit of the measure in the semantic profile', async () => {
    const folder = makeFolder({ 'ontime.csv': 'day,carrier,on_time\n2024-01-01,A,90.6%\n2024-01-02,A,88%\n2024-01-03,B,97.5%\n2024-01-04,B,100%\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const onTime = env.semantics.columns.find((c) => c.table === 'ontime' && c.column === 'on_time');
      assert.equal(env.profile.tables[0].columns[2].type, 'real');
      assert.equal(onTime?.unit?.value.kind, 'percent');
      assert.equal(onTime?.additivity?.value, 'non-additive');
    } finally {
      folder.cleanup();
    }
  });

  it("reads the domestic carriers' zero-padded months 01–12 as month numbers (india-aviation-traffic, domestic/carrier.csv)", async () => {
    const env = await loadFiles({ 'carrier.csv': vendored('india-aviation-traffic/data/aggregated/domestic/carrier.csv') });
    const month = columnOf(tableOf(env, 'carrier'), 'Month');
    assert.deepEqual([month.type, month.min, month.max], ['integer', 1, 12]);
  });

  it('decides leading zeros by the column: codes of one width stay text, loosely written numbers and months do not', async () => {
    const env = await loadFiles({
      'codes.csv': [
        'fips,zip,region,id,count,month,mixed_width',
        '01001,02134,01,007,4,01,0042',
        '06037,90210,13,012,04,02,17',
        '48201,10001,22,123,12,12,0042',
      ].join('\n'),
    });
    const codes = tableOf(env, 'codes');
    assert.deepEqual(
      codes.columns.map((c) => [c.name, c.type]),
      [
        ['fips', 'text'],
        ['zip', 'text'],
        ['region', 'text'],
        ['id', 'text'],
        ['count', 'integer'],
        ['month', 'integer'],
        ['mixed_width', 'integer'],
      ],
    );
    assert.deepEqual(await queryImage(env.image, 'SELECT fips, zip, region, id, count, month FROM codes ORDER BY fips'), [
      ['01001', '02134', '01', '007', 4, 1],
      ['06037', '90210', '13', '012', 4, 2],
      ['48201', '10001', '22', '123', 12, 12],
    ]);
  });

  it("reads Eurostat's `:` as missing and its 1995M01 months as dates (tcpd-time-series, usd_isk)", async () => {
    const env = await loadFiles({ 'isk.csv': vendored('tcpd-time-series/data/datasets/usd_isk/ert_bil_eur_m_1_Data.csv') });
    const table = tableOf(env, 'isk');
    // Before: TIME and Value were text.
    assert.deepEqual([columnOf(table, 'TIME').type, columnOf(table, 'TIME').dateLayout, columnOf(table, 'Value').type], ['date', "YYYY'M'MM", 'real']);
    assert.match(messages(env), /Column 'Value': 48 cell\(s\) write a missing value out \(:\); read as missing in a real column\./);
    assert.deepEqual(await queryImage(env.image, "SELECT time, currency, value FROM isk WHERE time = '1995-02-01' ORDER BY currency"), [
      ['1995-02-01', 'Icelandic krona', null],
      ['1995-02-01', 'US dollar', 1.2587],
    ]);
  });

  it('reads quarters (2020Q3) as their first day, the `..` and `.` marks as missing, and leaves a mark in a text column alone', async () => {
    const env = await loadFiles({ 'q.csv': 'period,value,note\n2020Q1,1.5,..\n2020Q2,..,x\n2020Q3,.,.\n2020Q4,2,y\n' });
    const q = tableOf(env, 'q');
    assert.deepEqual(q.columns.map((c) => [c.name, c.type, c.dateLayout]), [
      ['period', 'date', "YYYY'Q'Q"],
      ['value', 'real', undefined],
      ['note', 'text', undefined],
    ]);
    assert.deepEqual(await queryImage(env.image, 'SELECT period, value, note FROM q ORDER BY period'), [
      ['2020-01-01', 1.5, '..'],
      ['2020-04-01', null, 'x'],
      ['2020-07-01', null, '.'],
      ['2020-10-01', 2, 'y'],
    ]);
  });

  it("reads the UK official statistics' symbols (z, x, c, low, [c]) as missing in the DfE's counts, and leaves an X mark and a word alone", async () => {
    const env = await loadFiles({ 'pupils.csv': vendored('dfe-uk-education-training-csv/data/uk_expenditure.csv') });
    const table = tableOf(env, 'pupils');
    // Before: the real-terms total and the share of GDP, given only on the grand-total rows, were text beside `z`.
    assert.deepEqual(['t_expenditure_real_terms_millions', 'pt_expenditure_of_gdp'].map((c) => columnOf(table, c).type), ['real', 'real']);
    assert.match(messages(env), /write a missing value out \(z\)/);
    const marks = await loadFiles({ 'm.csv': 'n,mark,word,bracketed\n1,X,c,[c]\n2,,a,3\nx,X,b,[low]\n4,19,z,5\n' });
    const m = tableOf(marks, 'm');
    assert.deepEqual(m.columns.map((c) => [c.name, c.type]), [['n', 'integer'], ['mark', 'text'], ['word', 'text'], ['bracketed', 'integer']]);
    assert.deepEqual(await queryImage(marks.image, 'SELECT n, mark, word, bracketed FROM m ORDER BY rowid'), [
      [1, 'X', 'c', null],
      [2, null, 'a', 3],
      [null, 'X', 'b', null],
      [4, '19', 'z', 5],
    ]);
  });

  it('keeps a column of percentages mixed with bare numbers as text', async () => {
    const env = await loadFiles({ 'p.csv': 'a,b\n5%,1\n7,2\n' });
    assert.deepEqual(tableOf(env, 'p').columns.map((c) => [c.name, c.type, c.unit]), [
      ['a', 'text', undefined],
      ['b', 'integer', undefined],
    ]);
  });
});

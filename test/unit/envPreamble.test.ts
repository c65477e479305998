import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Papa from 'papaparse';
import { findHeaderLayout, sniffDelimiter } from '../../src/core/env/csvLoader';
import type { DataEnvironment, TableProfile } from '../../src/core/env/types';
import { loadFiles, queryImage } from '../support/envFixtures';

const TCPD = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public', 'tcpd-time-series', 'data', 'datasets');
const vendored = (file: string) => fs.readFileSync(path.join(TCPD, ...file.split('/')));

const tableOf = (env: DataEnvironment, name: string): TableProfile => {
  const table = env.profile.tables.find((t) => t.name === name);
  assert.ok(table, `${name} in ${env.profile.tables.map((t) => t.name).join(', ')}`);
  return table;
};
const rowsOf = (csv: string, delimiter = ',') => Papa.parse<string[]>(csv.trim(), { delimiter }).data;
const messages = (env: DataEnvironment) => env.profile.diagnostics.map((d) => `${d.severity} ${d.message}`);

describe('env: CSV title lines, notes and key–value lines before the header', function () {
  this.timeout(60_000);

  it("skips the EIA export's four title lines and reads its MM/DD/YYYY prices (tcpd-time-series, brent_spot)", async () => {
    const env = await loadFiles({ 'brent.csv': vendored('brent_spot/Europe_Brent_Spot_Price_FOB_Daily.csv') });
    const table = tableOf(env, 'brent');
    // Before: one column named after the title, 8,199 rows of text, 8,196 ragged-row warnings.
    assert.equal(table.rowCount, 8195);
    assert.deepEqual(table.columns.map((c) => [c.originalName, c.type, c.dateLayout]), [
      ['Day', 'date', 'M/D/YYYY'],
      ['Series ID: PET.RBRTE.D Dollars per Barrel', 'real', undefined],
    ]);
    const info = env.profile.diagnostics.find((d) => /before the table/.test(d.message));
    assert.ok(info, messages(env).join('\n'));
    assert.equal(info.severity, 'info');
    assert.equal(info.line, 1);
    assert.match(info.message, /^Lines 1–4 come before the table \(a title or notes\): "Europe Brent Spot Price FOB Daily";.*the column names are read from line 5\.$/);
    assert.ok(!env.profile.diagnostics.some((d) => d.severity === 'warning'), messages(env).join('\n'));
    assert.deepEqual(await queryImage(env.image, 'SELECT day, series_id_pet_rbrte_d_dollars_per_barrel FROM brent ORDER BY day DESC LIMIT 2'), [
      ['2019-08-26', 58.64],
      ['2019-08-23', 58.64],
    ]);
  });

  it('reads key–value lines over a two-column file without a header as notes, the columns unnamed (debt_ireland.csv)', async () => {
    const env = await loadFiles({ 'debt_ireland.csv': vendored('debt_ireland/debt_ireland.csv') });
    const table = tableOf(env, 'debt_ireland');
    assert.equal(table.rowCount, 21);
    assert.deepEqual(table.columns.map((c) => [c.name, c.type]), [
      ['column_1', 'integer'],
      ['column_2', 'real'],
    ]);
    assert.deepEqual([table.columns[0].min, table.columns[0].max], [2000, 2020]);
    const info = env.profile.diagnostics.find((d) => /key–value/.test(d.message));
    assert.ok(info, messages(env).join('\n'));
    assert.match(info.message, /"Statistical Data Warehouse code: AME\.A\.IRL\.1\.0\.319\.0\.UDGGL"; "Country: Ireland"\. Skipped; no line names the columns, so they are named column_1, column_2; the data starts on line 3\./);
  });

  it('reads the CBS export: semicolons after a BOM, two title lines, group labels over the years, a source line after the table', async () => {
    const env = await loadFiles({ 'cbs.csv': vendored('unemployment_nl/Beroepsbevolking__vanaf_1800__12_uursgrens___1800_2013_04042019_154346.csv') });
    const table = tableOf(env, 'cbs');
    // Before: read as comma-separated, the title as the header, 13 rows in 2 text columns, 4,340 stray-quote warnings.
    assert.equal(table.rowCount, 9);
    assert.equal(table.columns.length, 218);
    assert.deepEqual(table.columns.slice(0, 5).map((c) => [c.name, c.type]), [
      ['geslacht', 'text'],
      ['onderwerp', 'text'],
      ['column_3', 'text'],
      ['t_1800', 'integer'],
      ['t_1801', 'integer'],
    ]);
    assert.equal(table.columns[3].origin?.group, 'Perioden');
    assert.equal(table.columns[0].origin, undefined);
    const text = messages(env).join('\n');
    assert.match(text, /Lines 1–2 come before the table \(a title or notes\): "Beroepsbevolking; vanaf 1800 \(12-uursgrens\), 1800-2013"; "Persoonskenmerken: Totaal"\./);
    assert.match(text, /Line 3 holds group labels over the column names .* "Perioden" \(columns 4–218\)/);
    assert.match(text, /Line 14 comes after the table \(a note or source\): "Bron: CBS"\. Not loaded\./);
    // `.` is CBS's (and SAS's, Stata's) missing value.
    assert.match(text, /5 columns have cells that write a missing value out \(\.; 5 cells in all\)/);
    assert.ok(!/stray quote|different number of fields/.test(text), text);
    assert.deepEqual(await queryImage(env.image, "SELECT geslacht, onderwerp, column_3, t_1800, t_1804, t_2013 FROM cbs WHERE onderwerp = 'Werkloze beroepsbevolking' ORDER BY geslacht"), [
      ['Mannen', 'Werkloze beroepsbevolking', 'x 1 000', 17, 19, 355],
      ['Mannen en vrouwen', 'Werkloze beroepsbevolking', 'x 1 000', 19, 21, 656],
      ['Vrouwen', 'Werkloze beroepsbevolking', 'x 1 000', null, null, 301],
    ]);
  });

  it('sniffs the delimiter from the lines most rows share, not the first line (a title, a BOM)', () => {
    assert.equal(sniffDelimiter('"Sales; by region, 2019"\n"";"";"Q"\nregion;q1;q2\nNorth;1;2\nSouth;3;4\nEast;5;6\n'), ';');
    assert.equal(sniffDelimiter('Report\nregion,q1,q2\nNorth,1,2\nSouth,3,4\n'), ',');
    assert.equal(sniffDelimiter('a\tb\tc\n1\t2\t3\n'), '\t');
    assert.equal(sniffDelimiter('name,note\nAnn,"a; b"\nBo,c\n'), ',');
  });

  it('leaves ordinary first lines alone: a header shorter than ragged rows, blank names, a header over text rows, one text line over data', () => {
    const none = (csv: string) => assert.equal(findHeaderLayout(rowsOf(csv)).skip, 0, csv);
    none('a,b,c\n1,2,3,\n4,5,6,\n7,8,9,\n');
    none('id,name\n1,Ann,x,y\n2,Bo,x,y\n3,Cy,x,y\n');
    none('Names,,\nAnn,Bo,Cy\nDee,Ed,Flo\n');
    none('year,value\n2000,1.5\n2001,2.5\n2002,3.5\n');
    none('region,q1,q2\nNorth,1,2\nSouth,3,4\n');
    // A title without delimiters over an all-text table is still a title.
    assert.deepEqual(findHeaderLayout(rowsOf('My list\nname,city\nAnn,Paris\nBo,Rome\n')), { skip: 1, preamble: 1, keyValue: false, width: 2, groupHeader: undefined });
    // A sparse line as wide as the table is a title only over typed rows.
    assert.equal(findHeaderLayout(rowsOf('Monthly sales,,\nmonth,region,total\n2020-01,North,5\n2020-02,South,6\n')).skip, 1);
  });

  it('loads a semicolon file with a BOM, a title and notes the same as its plain twin, and says what it skipped', async () => {
    const plain = 'region;q1;q2\nNorth;1,5;2\nSouth;3;4\n';
    const env = await loadFiles({ 'a.csv': '\uFEFF"Sales by region"\nSource:;Statistics office\n\n' + plain, 'b.csv': plain.replace(/;/g, '|') });
    const a = tableOf(env, 'a');
    const b = tableOf(env, 'b');
    assert.deepEqual(a.columns.map((c) => [c.name, c.type]), b.columns.map((c) => [c.name, c.type]));
    assert.equal(a.rowCount, 2);
    assert.match(messages(env).join('\n'), /Lines 1–2 come before the table \(a title or notes\): "Sales by region"; "Source: Statistics office"\. Skipped; the column names are read from line 4\./);
  });
});

describe('env: CSV lines that end in \\r\\r\\n', function () {
  const BURNING_GLASS = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public', 'burningglass-uk-jobs-csv', 'data');

  it("reads Burning Glass's occupation groups (every line ends \\r\\r\\n): quoted commas stay in their field, 348 rows, numbers in the number columns", async () => {
    const bytes = fs.readFileSync(path.join(BURNING_GLASS, 'occupation_group_data.csv'));
    assert.ok(bytes.includes(Buffer.from('\r\r\n')));
    const env = await loadFiles({ 'groups.csv': bytes });
    const table = tableOf(env, 'groups');
    assert.equal(table.rowCount, 348);
    assert.deepEqual(table.columns.map((c) => [c.name, c.type]), [
      ['occupation_group', 'text'],
      ['geography_name', 'text'],
      ['demand_entry_sl', 'real'],
      ['demand_entry_fe', 'real'],
      ['demand_entry_he', 'real'],
    ]);
    assert.deepEqual(await queryImage(env.image, 'SELECT occupation_group, geography_name, demand_entry_sl FROM groups LIMIT 1'), [['Caring, Leisure And Other Service Occupations', 'CORNWALL AND THE ISLES OF SCILLY', 1275]]);
    assert.ok(env.profile.diagnostics.some((d) => d.severity === 'info' && /carriage returns/.test(d.message)), messages(env).join('\n'));
    assert.ok(!env.profile.diagnostics.some((d) => d.severity === 'warning'), messages(env).join('\n'));
  });

  it('leaves a quoted field\'s own \\r\\n and a file of plain \\r\\n lines as they were', async () => {
    const env = await loadFiles({ 'notes.csv': 'id,note\r\n1,"two\r\nlines"\r\n2,plain\r\n' });
    assert.deepEqual(await queryImage(env.image, 'SELECT id, note FROM notes ORDER BY id'), [[1, 'two\r\nlines'], [2, 'plain']]);
    assert.ok(!env.profile.diagnostics.some((d) => /carriage returns/.test(d.message)));
  });
});

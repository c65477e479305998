import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { loadEnvironment } from '../../src/core/env/index';
import type { DataEnvironment, TableProfile } from '../../src/core/env/types';
import { findGroupHeaderLine } from '../../src/core/env/csvLoader';
import { loadFiles, queryImage } from '../support/envFixtures';

const load = loadFiles;

const tableOf = (env: DataEnvironment, name: string): TableProfile => {
  const table = env.profile.tables.find((t) => t.name === name);
  assert.ok(table, `${name} in ${env.profile.tables.map((t) => t.name).join(', ')}`);
  return table;
};

const rowsOf = (csv: string) => Papa.parse<string[]>(csv.trim()).data;

/** A spreadsheet's "Save as CSV" of a sheet whose header has a merged group row: labels over their first column. */
const EXPORT = [
  'Site,,,Readings,,,',
  'Station,Region,Opened,Reading date,Rainfall (mm),Max temp (°C),Notes',
  'Kew,South,1871,13/01/2024,2.4,8.1,',
  'Durham,North,1850,14/01/2024,0,5.5,gauge frozen',
  'Armagh,North,1795,15/01/2024,11.2,7.0,',
  '',
].join('\r\n');

describe('env: CSV with a two-line header (group labels over the column names)', () => {
  it('reads the column names from the second line, types the data and reports the groups', async () => {
    const env = await load({ 'weather.csv': EXPORT });
    const table = tableOf(env, 'weather');
    assert.equal(table.rowCount, 3);
    assert.deepEqual(table.columns.map((c) => [c.name, c.type]), [
      ['station', 'text'],
      ['region', 'text'],
      ['opened', 'integer'],
      ['reading_date', 'date'],
      ['rainfall_mm', 'real'],
      ['max_temp_c', 'real'],
      ['notes', 'text'],
    ]);
    assert.deepEqual(table.columns.map((c) => c.origin?.group), ['Site', 'Site', 'Site', 'Readings', 'Readings', 'Readings', 'Readings']);
    assert.equal(table.columns[4].origin?.label, 'weather.csv › Readings › Rainfall (mm)');
    const info = env.profile.diagnostics.find((d) => /two-line header/.test(d.message));
    assert.ok(info, JSON.stringify(env.profile.diagnostics));
    assert.equal(info.severity, 'info');
    assert.equal(info.line, 1);
    assert.match(info.message, /"Site" \(columns 1–3\), "Readings" \(columns 4–7\)/);
    assert.deepEqual(await queryImage(env.image, 'SELECT station, opened, reading_date, rainfall_mm FROM weather ORDER BY opened'), [
      ['Armagh', 1795, '2024-01-15', 11.2],
      ['Durham', 1850, '2024-01-14', 0],
      ['Kew', 1871, '2024-01-13', 2.4],
    ]);
  });

  it('leaves ordinary first lines alone: a header with a few blank cells, a mostly blank first line over text, names that repeat or are numbers', () => {
    // A real header with two unnamed columns: mostly filled, so it stays the header.
    assert.equal(findGroupHeaderLine(rowsOf('id,name,,score,\n1,a,x,3,\n2,b,y,4,\n')), undefined);
    // Mostly blank first line, but the rows below are all text: nothing says line 2 names the columns.
    assert.equal(findGroupHeaderLine(rowsOf('Names,,\nAnn,Bo,Cy\nDee,Ed,Flo\n')), undefined);
    // The second line repeats a cell, or holds a number: data, not names.
    assert.equal(findGroupHeaderLine(rowsOf('Group,,\nx,x,y\n1,2,3\n')), undefined);
    assert.equal(findGroupHeaderLine(rowsOf('Group,,\nx,2020,y\n1,2,3\n')), undefined);
    // A label beyond the named columns: not a group row.
    assert.equal(findGroupHeaderLine(rowsOf('G,,,,extra\na,b,c\n1,2,3\n')), undefined);
    // The spreadsheet export is found, trailing empty cells and all.
    assert.deepEqual(findGroupHeaderLine(rowsOf('G,,,H,,,,\na,b,c,d,,,,\n1,2,3,4,,,,\n'))?.groups, [
      { label: 'G', from: 0, to: 2 },
      { label: 'H', from: 3, to: 3 },
    ]);
  });

  it('loads the vendored Ofsted CSVs by their second header line, with typed dates, places and event numbers', async function () {
    this.timeout(120_000);
    const folder = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public', 'ofsted-childrens-homes', 'data');
    const env = await loadEnvironment(folder);
    const inspections = tableOf(env, 'inspections_in_year_2017_18');
    const providers = tableOf(env, 'providers_as_at_2018_03_31');
    assert.equal(inspections.rowCount, 3488);
    assert.equal(providers.rowCount, 2797);
    for (const table of [inspections, providers]) {
      const named = table.columns.slice(0, 26);
      assert.deepEqual(named.slice(0, 3).map((c) => c.originalName), ['Web link', 'URN', table === inspections ? 'Linked Education URN' : 'Linked education URN']);
      assert.deepEqual(named.slice(16, 21).map((c) => [c.name, c.type]), [
        ['places', 'integer'],
        ['event_type', 'text'],
        ['inspection_date', 'date'],
        ['publication_date', 'date'],
        ['event_number', 'integer'],
      ]);
      assert.equal(named[18].dateLayout, 'D/M/YYYY');
      assert.equal(named[1].origin?.group, 'Provider information');
      assert.equal(named[25].name, 'leadership_and_management');
    }
    assert.equal(inspections.columns[20].origin?.group, 'Inspection information');
    assert.equal(providers.columns[20].origin?.group, 'Latest Full Inspection');
    // The ownership table has an ordinary header.
    assert.deepEqual(tableOf(env, 'private_sector_ownerships').columns.map((c) => c.name), ['urn', 'provision_type', 'registration_status', 'sector', 'owner', 'source']);
    assert.equal(env.profile.diagnostics.filter((d) => /two-line header/.test(d.message)).length, 2);
    // The inspections file's 39 trailing columns have neither a name nor a value: left out, as a workbook's are, and said.
    assert.equal(inspections.columns.length, 26);
    assert.deepEqual([inspections.droppedColumns?.[0], inspections.droppedColumns?.at(-1), inspections.droppedColumns?.length], ['column_27', 'column_65', 39]);
    assert.ok(env.profile.diagnostics.some((d) => d.file.endsWith('inspections-in-year-2017-18.csv') && d.severity === 'info' && /39 column\(s\) with neither a name nor a value left out \(columns 27–65\)/.test(d.message)), JSON.stringify(env.profile.diagnostics));
    assert.equal(providers.droppedColumns, undefined);
  });
});

describe('env: columns with neither a name nor a value', () => {
  it('leaves them out of a CSV, keeps an unnamed column with values and a named empty one, and says which', async () => {
    const env = await load({ 'scores.csv': 'name,,score,notes,,\nAnn,x,3,,,\nBo,,4,,,\n' });
    const table = tableOf(env, 'scores');
    assert.deepEqual(table.columns.map((c) => c.name), ['name', 'column_2', 'score', 'notes']);
    assert.deepEqual(table.droppedColumns, ['column_5', 'column_6']);
    assert.deepEqual(await queryImage(env.image, 'SELECT name, column_2, score FROM scores ORDER BY name'), [
      ['Ann', 'x', 3],
      ['Bo', null, 4],
    ]);
    const info = env.profile.diagnostics.find((d) => /neither a name nor a value/.test(d.message));
    assert.equal(info?.severity, 'info');
    assert.match(info!.message, /^2 column\(s\) with neither a name nor a value left out \(columns 5–6\)/);
  });

  it('leaves them out of a workbook sheet the same way, and says which', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Scores');
    sheet.addRow(['name', '', 'score', 'notes', '', 'x']);
    sheet.addRow(['Ann', 'x', 3, null, null, null]);
    sheet.addRow(['Bo', null, 4, null, null, null]);
    // A blank cell with a border: part of the sheet's range, with neither a name nor a value.
    sheet.getCell('E2').border = { top: { style: 'thin' } };
    const env = await load({ 'scores.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const table = tableOf(env, 'scores');
    assert.deepEqual(table.columns.map((c) => c.name), ['name', 'column_2', 'score', 'notes', 'x']);
    assert.deepEqual(table.droppedColumns, ['column_5']);
    assert.ok(env.profile.diagnostics.some((d) => /Sheet 'Scores': 1 column\(s\) with neither a name nor a value left out \(column 5\)/.test(d.message)), JSON.stringify(env.profile.diagnostics));
  });
});

import * as assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import type { DataEnvironment, TableProfile } from '../../src/core/env/types';
import { columnLetters, isoFromExcelDate } from '../../src/core/env/xlsxLoader';
import { loadFiles, queryImage } from '../support/envFixtures';

const load = loadFiles;

function tableOf(env: DataEnvironment, name: string): TableProfile {
  const table = env.profile.tables.find((t) => t.name === name);
  assert.ok(table, `table ${name} in ${env.profile.tables.map((t) => t.name).join(', ')}`);
  return table;
}

/**
 * Two sheets: "Regions" with a title row, a blank row, a two-row header whose group cells are merged ("Q1", "Q2"
 * over Revenue/Cost; "Region" merged down), and a formula column with cached results; "Orders" with dates,
 * datetimes, booleans and a formula without a cached value.
 */
async function salesWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const regions = workbook.addWorksheet('Regions');
  regions.getCell('A1').value = 'Sales by region, 2024';
  regions.mergeCells('A1:F1');
  // Row 2 left blank on purpose.
  regions.getCell('A3').value = 'Region';
  regions.mergeCells('A3:A4');
  regions.getCell('B3').value = 'Q1';
  regions.mergeCells('B3:C3');
  regions.getCell('D3').value = 'Q2';
  regions.mergeCells('D3:E3');
  regions.getCell('F3').value = 'Total revenue';
  regions.mergeCells('F3:F4');
  regions.getCell('B4').value = 'Revenue';
  regions.getCell('C4').value = 'Cost';
  regions.getCell('D4').value = 'Revenue';
  regions.getCell('E4').value = 'Cost';
  const data: Array<[string, number, number, number, number]> = [
    ['North', 100, 60, 120, 70],
    ['South', 80, 50, 90.5, 55],
    ['East', 50, 45, 40, 42],
  ];
  data.forEach((row, i) => {
    const r = 5 + i;
    regions.getRow(r).values = row;
    regions.getCell(`F${r}`).value = { formula: `B${r}+D${r}`, result: row[1] + row[3] };
  });

  const orders = workbook.addWorksheet('Orders');
  orders.addRow(['Order ID', 'Ordered on', 'Shipped at', 'Paid', 'Amount', 'Amount with tax']);
  orders.addRow([1, new Date(Date.UTC(2024, 0, 15)), new Date(Date.UTC(2024, 0, 16, 9, 30, 0)), true, 10, { formula: 'E2*1.2', result: 12 }]);
  orders.addRow([2, new Date(Date.UTC(2024, 1, 29)), new Date(Date.UTC(2024, 2, 1, 17, 5, 30)), false, 20, { formula: 'E3*1.2' }]);
  orders.addRow([3, new Date(Date.UTC(2023, 11, 31)), null, true, 30.5, { formula: 'E4*1.2', result: 36.6 }]);
  orders.getColumn(2).numFmt = 'yyyy-mm-dd';
  orders.getColumn(3).numFmt = 'yyyy-mm-dd hh:mm:ss';
  workbook.addWorksheet('Empty');
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('env: XLSX', () => {
  it('loads each sheet as a table, reading merged two-row headers, a title row and cached formula values', async () => {
    const env = await load({ 'sales.xlsx': await salesWorkbook() });
    const regions = tableOf(env, 'sales_regions');
    assert.equal(regions.sourceFile, 'sales.xlsx');
    assert.equal(regions.originalName, 'Regions');
    assert.deepEqual(
      regions.columns.map((c) => [c.name, c.originalName, c.type]),
      [
        ['region', 'Region', 'text'],
        ['q1_revenue', 'Q1 Revenue', 'integer'],
        ['q1_cost', 'Q1 Cost', 'integer'],
        ['q2_revenue', 'Q2 Revenue', 'real'],
        ['q2_cost', 'Q2 Cost', 'integer'],
        ['total_revenue', 'Total revenue', 'real'],
      ],
    );
    assert.equal(regions.rowCount, 3);
    const rows = await queryImage(env.image, 'SELECT region, q1_revenue, q2_revenue, total_revenue FROM sales_regions ORDER BY region');
    assert.deepEqual(rows, [
      ['East', 50, 40, 90],
      ['North', 100, 120, 220],
      ['South', 80, 90.5, 170.5],
    ]);
    const q1Cost = regions.columns.find((c) => c.name === 'q1_cost')!;
    assert.deepEqual(q1Cost.origin, { file: 'sales.xlsx', sheet: 'Regions', headerCells: 'C3:C4', range: 'C5:C7', label: 'sales.xlsx › Regions › Q1 Cost' });
    const messages = env.profile.diagnostics.map((d) => d.message).join('\n');
    assert.match(messages, /title row\(s\) above the header skipped: "Sales by region, 2024"/);
    assert.match(messages, /2-row header \(rows 3–4\)/);
    assert.match(messages, /Sheet 'Empty' is empty; skipped/);
    assert.doesNotMatch(messages, /hidden/);
    assert.deepEqual(env.profile.files[0].produced, ['sales_regions', 'sales_orders']);
    assert.equal(env.profile.files[0].kind, 'xlsx');
  });

  it('reads a published sheet: caption lines merged across every column (A3:XFD3) above the header, the table as wide as its values', async () => {
    // As the BLS's R-CPI-U-RS workbook: five caption lines, two merged to column O, two to XFD, one in a single cell.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Table 1');
    const captions = ['Consumer Price Index Retroactive Series', 'U.S. city average', 'All items', 'Not Seasonally Adjusted', 'December 1977=100'];
    captions.forEach((text, i) => (sheet.getCell(`A${i + 1}`).value = text));
    sheet.mergeCells('A1:E1');
    sheet.mergeCells('A2:E2');
    sheet.mergeCells('A3:XFD3');
    sheet.mergeCells('A5:XFD5');
    sheet.addRow(['YEAR', 'JAN', 'FEB', 'AVG']);
    for (let year = 1978; year < 1990; year++) sheet.addRow([year, 100 + year - 1978, 100.5 + year - 1978, 100.3 + year - 1978]);
    const env = await load({ 'cpi.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    assert.deepEqual(env.profile.diagnostics.filter((d) => d.severity === 'error'), []);
    const table = env.profile.tables[0];
    assert.ok(table, 'the sheet loads');
    assert.deepEqual(table.columns.map((c) => c.originalName), ['YEAR', 'JAN', 'FEB', 'AVG']);
    assert.equal(table.rowCount, 12);
  });

  it('splits sub-tables stacked in one sheet, each under a row that repeats the header, and drops a page header printed again', async () => {
    // As HMRC's Tobacco Bulletin: receipts by financial year, then "Table 1b: … by calendar year" over the same columns.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Table_1_receipts');
    sheet.addRow(['Table 1: Tobacco receipts']);
    sheet.addRow(['Table 1a: Tobacco receipts by financial year', 'Cigarettes', 'Cigars', 'Overall total']);
    for (let y = 2010; y < 2015; y++) sheet.addRow([`${y} to ${y + 1}`, 7000 + y, 100 + (y % 7), 7100 + y + (y % 7)]);
    sheet.addRow(['Table 1b: Tobacco receipts by calendar year', 'Cigarettes', 'Cigars', 'Overall total']);
    sheet.addRow([2009, '[x]', '[x]', '[x]']);
    for (let y = 2010; y < 2016; y++) sheet.addRow([y, 6900 + y, 90 + (y % 5), 6990 + y + (y % 5)]);
    sheet.addRow(['End of worksheet']);
    // A report printed over pages, its header repeated on each: one table.
    const pages = workbook.addWorksheet('Pages');
    pages.addRow(['Store', 'Sales', 'Returns']);
    for (let i = 0; i < 4; i++) pages.addRow([`S${i}`, 10 * i, i]);
    pages.addRow(['Store', 'Sales', 'Returns']);
    for (let i = 4; i < 8; i++) pages.addRow([`S${i}`, 10 * i, i]);
    const env = await load({ 'bulletin.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const financial = tableOf(env, 'bulletin_table_1_receipts_tobacco_receipts_by_financial_year');
    const calendar = tableOf(env, 'bulletin_table_1_receipts_tobacco_receipts_by_calendar_year');
    assert.equal(financial.rowCount, 5);
    assert.equal(calendar.rowCount, 7);
    assert.equal(calendar.columns.find((c) => c.originalName === 'Cigarettes')?.type, 'integer');
    assert.equal(calendar.columns[0].originalName, 'Table 1b: Tobacco receipts by calendar year');
    assert.ok(env.profile.diagnostics.some((d) => /stacks 2 tables/.test(d.message)));
    const paged = tableOf(env, 'bulletin_pages');
    assert.equal(paged.rowCount, 8);
    assert.equal(paged.columns.find((c) => c.originalName === 'Sales')?.type, 'integer');
  });

  it('reads an Excel table by its own range and column names, the header shown above it as each column\'s description', async () => {
    // As HSE's injury tables: a title, a header of several rows written for people, then the Excel table (`cil` …).
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Table-1');
    sheet.getCell('B1').value = 'Back to contents';
    sheet.getCell('B3').value = 'Table 1: Estimated injuries';
    sheet.getRow(6).values = [null, 'Area', 'Year', 'Averaged incidence (thousands)', 'Averaged incidence (thousands)'];
    sheet.getRow(7).values = [null, 'Area', 'Year', 'central', '95% C.I. lower'];
    sheet.addTable({
      name: 'Table1',
      ref: 'B8',
      headerRow: true,
      columns: [{ name: 'label2' }, { name: 'year' }, { name: 'central' }, { name: 'cil' }],
      rows: Array.from({ length: 6 }, (_, i) => [['Wales', 'Scotland'][i % 2], `20${10 + i}/${11 + i}`, 100 + i, 90 + i]),
    });
    // A second sheet with two Excel tables side by side: one table each.
    const two = workbook.addWorksheet('Two');
    two.addTable({ name: 'Prices', ref: 'A1', headerRow: true, columns: [{ name: 'item' }, { name: 'price' }], rows: [['a', 1.5], ['b', 2.5], ['c', 3]] });
    two.addTable({ name: 'Stock', ref: 'E1', headerRow: true, columns: [{ name: 'item' }, { name: 'units' }], rows: [['a', 10], ['b', 20]] });
    const env = await load({ 'injuries.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const table = tableOf(env, 'injuries_table_1');
    assert.deepEqual(table.columns.map((c) => c.originalName), ['label2', 'year', 'central', 'cil']);
    assert.equal(table.rowCount, 6);
    assert.equal(table.columns.find((c) => c.originalName === 'cil')?.type, 'integer');
    assert.equal(table.columns.find((c) => c.originalName === 'cil')?.origin?.shownHeader, 'Averaged incidence (thousands) 95% C.I. lower');
    assert.equal(table.columns.find((c) => c.originalName === 'label2')?.origin?.shownHeader, 'Area');
    assert.ok(env.profile.diagnostics.some((d) => /Excel table 'Table1' \(B8:E14\) read by its own range and column names; the 7 row\(s\) above it/.test(d.message)));
    assert.equal(tableOf(env, 'injuries_two_prices').rowCount, 3);
    assert.deepEqual(tableOf(env, 'injuries_two_stock').columns.map((c) => c.originalName), ['item', 'units']);
  });

  it('reads a sheet as a whole where its Excel table holds only a small part of what it has', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Data');
    sheet.addRow(['Store', 'Sales', 'Returns']);
    for (let i = 0; i < 30; i++) sheet.addRow([`S${i}`, 10 * i, i % 4]);
    sheet.addTable({ name: 'Legend', ref: 'F1', headerRow: true, columns: [{ name: 'code' }, { name: 'meaning' }], rows: [['S', 'store']] });
    const env = await load({ 'sales.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const table = env.profile.tables[0];
    assert.equal(table.rowCount, 30);
    assert.ok(table.columns.some((c) => c.originalName === 'Sales'), table.columns.map((c) => c.originalName).join(', '));
  });

  it('reads the column notes under a statistics agency\'s header (Unit, Series Type, … Series ID) as notes, and the series below as data', async () => {
    // As the ABS's time-series sheets: descriptions as the header, nine labelled rows of notes, then a date per row.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Data1');
    sheet.addRow([null, 'Hours worked ; Market', 'Hours worked ; Non-market']);
    sheet.addRow(['Unit', '000 Hours', '000 Hours']);
    sheet.addRow(['Series Type', 'Seasonally Adjusted', 'Seasonally Adjusted']);
    sheet.addRow(['Collection Month', 3, 3]);
    sheet.addRow(['Series Start', new Date(Date.UTC(1984, 11, 1)), new Date(Date.UTC(1984, 11, 1))]);
    sheet.addRow(['No. Obs', 12, 12]);
    sheet.addRow(['Series ID', 'A123', 'A124']);
    for (let q = 0; q < 12; q++) sheet.addRow([new Date(Date.UTC(1984 + Math.floor((q + 11) / 4), ((q + 11) % 4) * 3, 1)), 2000 + q * 10.5, 500 + q * 3.25]);
    // A table labelled by words all the way down keeps every row.
    const places = workbook.addWorksheet('Places');
    places.addRow(['Country', 'Population', 'Capital']);
    places.addRow(['Norway', 'five million', 'Oslo']);
    places.addRow(['Sweden', 'ten million', 'Stockholm']);
    for (let i = 0; i < 6; i++) places.addRow([`Country ${i}`, 1000 + i, `City ${i}`]);
    const env = await load({ 'abs.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const data = env.profile.tables.find((t) => t.originalName === 'Data1');
    assert.ok(data);
    assert.equal(data.rowCount, 12);
    assert.deepEqual(data.columns.map((c) => c.type), ['date', 'real', 'real']);
    assert.ok(env.profile.diagnostics.some((d) => /6 row\(s\) of column notes/.test(d.message)), env.profile.diagnostics.map((d) => d.message).join('\n'));
    assert.equal(env.profile.tables.find((t) => t.originalName === 'Places')?.rowCount, 8);
  });

  it('reads a statistics office\'s monthly table: a numbered title, merged groups over label rows, the year once per year, summaries under it', async () => {
    // As the ONS's travel tables: "1 | Title", a unit line, "All visits" and "Area of residence" merged over their
    // columns, region names, then NSA/SA; the year written on January rows only; "Year to date" after a blank row.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Table 1');
    sheet.getRow(1).values = [1, "Overseas residents' visits to the UK by month."];
    sheet.getCell('F2').value = 'thousands';
    sheet.getRow(3).values = [null, null, 'All Visits', null, 'Area of residence'];
    sheet.mergeCells('C3:D3');
    sheet.mergeCells('E3:F3');
    sheet.getRow(4).values = [null, null, null, null, 'North America', 'Europe'];
    sheet.getRow(5).values = [null, null, 'NSA', 'SA', 'NSA', 'NSA'];
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec†'];
    let r = 6;
    for (const year of [2021, 2022]) months.forEach((month, m) => (sheet.getRow(r++).values = [m === 0 ? year : null, month, 1000 + r, 900 + r, 100 + r, 600 + r]));
    sheet.getRow(r + 1).values = ['Year to date', null, 31240, 0, 5480, 20980];
    sheet.getRow(r + 2).values = ['% change from year earlier'];
    sheet.getRow(r + 4).values = ['No data were collected for April to December 2020.'];
    // A table whose rows go on after a blank row keeps them; so does one whose first row is a name, not a label.
    const places = workbook.addWorksheet('Places');
    places.addRow(['Country', 'Capital', 'Population']);
    for (let i = 0; i < 8; i++) places.addRow([`Country ${i}`, `City ${i}`, 1000 + i]);
    places.addRow([]);
    for (let i = 8; i < 12; i++) places.addRow([`Country ${i}`, `City ${i}`, 1000 + i]);
    const env = await load({ 'travel.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const table = env.profile.tables.find((t) => t.originalName === 'Table 1');
    assert.ok(table);
    assert.deepEqual(table.columns.map((c) => c.name), ['year', 'month', 'all_visits_nsa', 'all_visits_sa', 'area_of_residence_north_america_nsa', 'area_of_residence_europe_nsa']);
    assert.equal(table.rowCount, 24, 'two years of months; the summaries and notes under the table left out');
    assert.equal(table.rowsLeftOutBelow, 3, 'and the profile says how many');
    const years = await queryImage(env.image, `SELECT year, COUNT(*) FROM "${table.name}" GROUP BY year ORDER BY year`);
    assert.deepEqual(years, [[2021, 12], [2022, 12]], 'the year written on each January filled down over its months, the stub named for what it holds');
    const messages = env.profile.diagnostics.map((d) => d.message).join('\n');
    assert.match(messages, /title row\(s\) above the header skipped: "1 Overseas residents' visits to the UK by month\.", "thousands"/);
    assert.match(messages, /row\(s\) under the table that are no rows of it.*"Year to date"/);
    assert.equal(env.profile.tables.find((t) => t.originalName === 'Places')?.rowCount, 12);
  });

  it('leaves out the source line and the footnotes written under a published table, with or without a blank row before them', async () => {
    // As the Scottish Government's quarterly tables: a title, a year merged over its quarters, the divisions and a
    // Total, then "Source: Police Scotland" right under the Total, a blank row, "Footnotes" and numbered notes.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('A - Division');
    sheet.getRow(1).values = ['Table A: deaths by division, by calendar year quarter'];
    sheet.getRow(3).values = ['Division', 2017, null, 2018, null];
    sheet.mergeCells('B3:C3');
    sheet.mergeCells('D3:E3');
    sheet.mergeCells('A3:A4');
    sheet.getRow(4).values = [null, 'January to June', 'July to December', 'January to June', 'July to December'];
    const divisions = ['A: North East', 'C: Forth Valley', 'D: Tayside', 'E: Edinburgh City', 'G: Greater Glasgow'];
    divisions.forEach((d, i) => (sheet.getRow(5 + i).values = [d, 10 + i, i === 2 ? 'x' : 12 + i, 14 + i, 9 + i]));
    sheet.getRow(10).values = ['Total', 60, 50, 80, 55];
    sheet.getRow(11).values = ['Source: Police Scotland'];
    sheet.getRow(13).values = ['Footnotes'];
    sheet.getRow(14).values = ['(1) Data is management information compiled from reports of officers attending scenes of death.'];
    sheet.mergeCells('A14:E14');
    sheet.getRow(15).values = ['(2) x denotes a count suppressed to protect confidentiality.'];
    // Rows that fill only their label and are no notes (a category with no figures yet) stay rows of the table.
    const plain = workbook.addWorksheet('Plain');
    plain.addRow(['Region', 'Visits', 'Nights']);
    for (let i = 0; i < 6; i++) plain.addRow([`Region ${i}`, 100 + i, 300 + i]);
    plain.addRow(['Region 6']);
    plain.addRow(['Region 7']);
    const env = await load({ 'deaths.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const table = env.profile.tables.find((t) => t.originalName === 'A - Division');
    assert.ok(table);
    assert.equal(table.rowCount, 6, 'five divisions and the Total; the source line and the four lines of notes left out');
    assert.equal(table.rowsLeftOutBelow, undefined, 'no summary a reader could take for a row: nothing to warn about');
    const names = await queryImage(env.image, `SELECT "${table.columns[0].name}" FROM "${table.name}"`);
    assert.deepEqual(names.map((r) => r[0]), [...divisions, 'Total']);
    assert.match(env.profile.diagnostics.map((d) => d.message).join('\n'), /row\(s\) under the table that are no rows of it.*"Source: Police Scotland", "Footnotes"/);
    assert.equal(env.profile.tables.find((t) => t.originalName === 'Plain')?.rowCount, 8);
  });

  it('stores dates and datetimes as ISO text, booleans as 0/1, and warns about formulas without a cached value', async () => {
    const env = await load({ 'sales.xlsx': await salesWorkbook() });
    const orders = tableOf(env, 'sales_orders');
    assert.deepEqual(
      orders.columns.map((c) => [c.name, c.type]),
      [
        ['order_id', 'integer'],
        ['ordered_on', 'date'],
        ['shipped_at', 'datetime'],
        ['paid', 'boolean'],
        ['amount', 'real'],
        ['amount_with_tax', 'real'],
      ],
    );
    const rows = await queryImage(env.image, 'SELECT order_id, ordered_on, shipped_at, paid, amount_with_tax FROM sales_orders ORDER BY order_id');
    assert.deepEqual(rows, [
      [1, '2024-01-15', '2024-01-16T09:30:00', 1, 12],
      [2, '2024-02-29', '2024-03-01T17:05:30', 0, null],
      [3, '2023-12-31', null, 1, 36.6],
    ]);
    assert.equal(orders.columns[1].min, '2023-12-31');
    assert.equal(orders.columns[1].origin?.label, 'sales.xlsx › Orders › Ordered on');
    const warning = env.profile.diagnostics.find((d) => d.severity === 'warning');
    assert.ok(warning, 'a warning for the uncached formula');
    assert.match(warning.message, /Sheet 'Orders': 1 formula cell\(s\) have no cached value/);
  });

  it('names a single-sheet workbook after the file and keeps a header with blank and duplicate cells usable', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow([]);
    sheet.addRow(['name', '', 'name', 'score']);
    sheet.addRow(['a', 'x', 'b', 1]);
    sheet.addRow([]);
    sheet.addRow(['c', 'y', 'd', 'pending']);
    const env = await load({ 'scores.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const scores = tableOf(env, 'scores');
    assert.deepEqual(
      scores.columns.map((c) => [c.name, c.type]),
      [
        ['name', 'text'],
        ['column_2', 'text'],
        ['name_2', 'text'],
        ['score', 'text'],
      ],
    );
    assert.deepEqual(await queryImage(env.image, 'SELECT name, column_2, score FROM scores'), [
      ['a', 'x', '1'],
      ['c', 'y', 'pending'],
    ]);
    assert.equal(scores.columns[3].origin?.headerCells, 'D2');
  });

  it("reads a missing-value mark written as a string among numbers (EIA's `.`, `n/a`) as missing, as a CSV file's", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Tons');
    sheet.addRow(['plant', 'landfill', 'note']);
    sheet.addRow(['A', 12.5, '.']);
    sheet.addRow(['B', '.', 'kept']);
    sheet.addRow(['C', 'n/a', 'n/a']);
    sheet.addRow(['D', 3, 'x']);
    const env = await load({ 'tons.xlsx': Buffer.from(await workbook.xlsx.writeBuffer()) });
    const tons = tableOf(env, 'tons');
    assert.deepEqual(tons.columns.map((c) => [c.name, c.type]), [['plant', 'text'], ['landfill', 'real'], ['note', 'text']]);
    // In a text column the marks stay as written.
    assert.deepEqual(await queryImage(env.image, 'SELECT plant, landfill, note FROM tons ORDER BY plant'), [
      ['A', 12.5, '.'],
      ['B', null, 'kept'],
      ['C', null, 'n/a'],
      ['D', 3, 'x'],
    ]);
  });

  it('gives a diagnostic, not a crash, for a truncated workbook, an encrypted one and a non-zip file', async () => {
    const good = await salesWorkbook();
    // An encrypted OOXML file is an OLE compound document whose directory lists EncryptionInfo and EncryptedPackage.
    const encrypted = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(encrypted, 0);
    Buffer.from('EncryptionInfo', 'utf16le').copy(encrypted, 1024);
    Buffer.from('EncryptedPackage', 'utf16le').copy(encrypted, 1152);
    const env = await load({
      'cut.xlsx': good.subarray(0, Math.floor(good.length / 2)),
      'locked.xlsx': encrypted,
      'notes.xlsx': 'just text, not a workbook',
      'ok.csv': 'a,b\n1,2\n',
    });
    const byFile = (file: string) => env.profile.diagnostics.filter((d) => d.file === file);
    assert.equal(byFile('cut.xlsx').length, 1);
    assert.equal(byFile('cut.xlsx')[0].severity, 'error');
    assert.match(byFile('cut.xlsx')[0].message, /truncated or corrupt/);
    assert.match(byFile('locked.xlsx')[0].message, /encrypted \(password-protected\)/);
    assert.match(byFile('notes.xlsx')[0].message, /not a zip package/);
    assert.deepEqual(
      env.profile.tables.map((t) => t.name),
      ['ok'],
    );
  });

  it('converts column numbers and dates the way spreadsheets show them', () => {
    assert.deepEqual([1, 26, 27, 28, 52, 703].map(columnLetters), ['A', 'Z', 'AA', 'AB', 'AZ', 'AAA']);
    assert.equal(isoFromExcelDate(new Date(Date.UTC(2024, 4, 6))), '2024-05-06');
    assert.equal(isoFromExcelDate(new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 250))), '2024-05-06T07:08:09.250');
    assert.equal(isoFromExcelDate(new Date(Number.NaN)), null);
    // A time with no date (`4:26 AM`) is a fraction of Excel's day zero, 30 December 1899: the time of day it shows.
    assert.equal(isoFromExcelDate(new Date(Date.UTC(1899, 11, 30, 4, 26))), '04:26:00');
    assert.equal(isoFromExcelDate(new Date(Date.UTC(1899, 11, 31, 4, 26))), '1899-12-31T04:26:00');
  });
});

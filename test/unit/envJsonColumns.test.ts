import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataEnvironment, TableProfile } from '../../src/core/env/types';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';
import { loadFiles, makeFolder, queryImage } from '../support/envFixtures';

const TCPD = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public', 'tcpd-time-series', 'data');
const vendored = (file: string) => fs.readFileSync(path.join(TCPD, ...file.split('/')));

const tableOf = (env: DataEnvironment, name: string): TableProfile => {
  const table = env.profile.tables.find((t) => t.name === name);
  assert.ok(table, `${name} in ${env.profile.tables.map((t) => t.name).join(', ')}`);
  return table;
};
const messages = (env: DataEnvironment) => env.profile.diagnostics.map((d) => `${d.severity} ${d.message}`).join('\n');

describe('env: column-oriented JSON and JSON Schemas', function () {
  this.timeout(60_000);

  it('loads a TCPD series (dates in time.raw, values in series[0].raw) as one row per observation', async () => {
    const env = await loadFiles({ 'brent_spot.json': vendored('datasets/brent_spot/brent_spot.json'), 'businv.json': vendored('datasets/businv/businv.json') });
    // Before: a one-row table of the series array (label, type, raw as JSON text), the dates in no table.
    const brent = tableOf(env, 'brent_spot');
    assert.equal(brent.rowCount, 500);
    assert.deepEqual(brent.columns.map((c) => [c.name, c.originalName, c.type]), [
      ['time.raw', 'time.raw', 'date'],
      ['dollars_barrel', 'series[0].raw (Dollars/Barrel)', 'real'],
    ]);
    assert.deepEqual(await queryImage(env.image, 'SELECT "time.raw", dollars_barrel FROM brent_spot ORDER BY "time.raw" LIMIT 1'), [['2000-01-04', 23.95]]);
    const businv = tableOf(env, 'businv');
    assert.deepEqual(businv.columns.map((c) => [c.name, c.type]), [
      ['time.raw', 'text'],
      ['business_inventory', 'integer'],
    ]);
    assert.deepEqual(await queryImage(env.image, 'SELECT "time.raw", business_inventory FROM businv LIMIT 1'), [['1992-01', 802948]]);
    assert.match(
      messages(env),
      /Column-oriented JSON: 2 arrays of 500 values side by side \(time\.raw, series\[0\]\.raw \(Dollars\/Barrel\)\) loaded as 500 rows, one per position\. The other values describe the file and are not in the table: time\.index = the positions 0–499 \(not a column\), name = brent_spot, longname = Brent Spot Price, n_obs = 500/,
    );
  });

  it('loads a dict of lists, names series by their distinct labels, and leaves records with short lists as records', async () => {
    const env = await loadFiles({
      'columns.json': JSON.stringify({ source: 'survey', year: [2019, 2020, 2021], count: [5, 7, null], region: ['N', 'S', 'E'] }),
      'series.json': JSON.stringify({ dates: ['2024-01-01', '2024-02-01', '2024-03-01'], series: [{ name: 'Exports', values: [1.5, 2, 2.5] }, { name: 'Imports', values: [3, 4.5, 5] }] }),
      'records.json': JSON.stringify({ items: [{ id: 1, tags: ['a', 'b', 'c'] }, { id: 2, tags: ['d', 'e', 'f'] }, { id: 3, tags: ['g', 'h', 'i'] }] }),
    });
    assert.deepEqual(tableOf(env, 'columns').columns.map((c) => [c.name, c.type]), [
      ['year', 'integer'],
      ['count', 'integer'],
      ['region', 'text'],
    ]);
    assert.deepEqual(await queryImage(env.image, 'SELECT year, count, region FROM columns ORDER BY year'), [
      [2019, 5, 'N'],
      [2020, 7, 'S'],
      [2021, null, 'E'],
    ]);
    assert.deepEqual(tableOf(env, 'series').columns.map((c) => [c.name, c.type]), [
      ['dates', 'date'],
      ['exports', 'real'],
      ['imports', 'real'],
    ]);
    const records = tableOf(env, 'records');
    assert.equal(records.rowCount, 3);
    assert.deepEqual(records.columns.map((c) => c.name), ['id', 'tags']);
  });

  it('loads the many values beside a column-oriented file\'s arrays (an EDGAR filer\'s codes and addresses) as a record of one row', async () => {
    const filer = {
      cik: '0000012345',
      name: 'Example Corp',
      sic: '3711',
      category: 'Large accelerated filer',
      fiscalYearEnd: '1231',
      stateOfIncorporation: 'DE',
      addresses: { mailing: { street1: '1 Main St', city: 'Springfield', zipCode: '01101' } },
      formerNames: [{ name: 'Example Motors', from: '2005-02-17', to: '2017-01-27' }],
      filings: { recent: { accessionNumber: Array.from({ length: 12 }, (_, i) => `0001-22-${i}`), form: Array.from({ length: 12 }, (_, i) => ['10-K', '8-K', '4'][i % 3]), size: Array.from({ length: 12 }, (_, i) => 80 + 100 * i) }, files: [] },
    };
    const env = await loadFiles({ 'submission.json': JSON.stringify(filer) });
    const filings = tableOf(env, 'submission');
    assert.equal(filings.rowCount, 12);
    assert.deepEqual(filings.columns.map((c) => c.name), ['filings.recent.accession_number', 'filings.recent.form', 'filings.recent.size']);
    const record = tableOf(env, 'submission_record');
    assert.equal(record.rowCount, 1);
    assert.ok(['cik', 'name', 'sic', 'addresses.mailing.city'].every((n) => record.columns.some((c) => c.name === n)), record.columns.map((c) => c.name).join(', '));
    assert.ok(!record.columns.some((c) => c.name.startsWith('filings.recent')), 'the arrays loaded as columns are not in the record');
    assert.equal(tableOf(env, 'submission_record_former_names').rowCount, 1);
    assert.match(messages(env), /The 13 other values of the file \(cik, name, sic, category, fiscalYearEnd, stateOfIncorporation, …\) are a record of their own, loaded as one row in submission_record/);
  });

  it("reads the TCPD JSON Schema as a document whose property lines describe the series' columns", async () => {
    const folder = makeFolder({ 'schema.json': vendored('schema.json'), 'datasets/brent_spot/brent_spot.json': vendored('datasets/brent_spot/brent_spot.json') });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      // Before: a one-row table of 82 flattened columns.
      assert.deepEqual(env.profile.tables.map((t) => t.name), ['brent_spot']);
      const doc = env.documents.find((d) => d.sourceFile === 'schema.json');
      assert.ok(doc);
      assert.equal(doc.title, 'Dataset Schema');
      const text = doc.sections.map((s) => s.text).join('\n');
      assert.match(text, /- `time\.index` \(array of integer, required\): Integer index of the series, starting from 0\./);
      assert.match(text, /- `series\[\]\.raw` \(array, required\)/);
      assert.ok(!/The Name Schema/.test(text), 'generated titles are left out');
      assert.match(messages(env), /A JSON Schema \(it describes the structure of other JSON files\): read as a document, not loaded as a table\./);
      // Its one described property, time.index, is no column here (the positions); time.raw has only a generated title.
      assert.equal(env.semantics.columns.find((c) => c.table === 'brent_spot' && c.column === 'time.raw')?.description, undefined);
    } finally {
      folder.cleanup();
    }
  });

  it('reads a BigQuery table schema beside its NDJSON export as a document, not as a table of three columns', async () => {
    const glaredb = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public', 'glaredb-austin-bikeshare-stations-ndjson', 'data');
    const read = (file: string) => fs.readFileSync(path.join(glaredb, file));
    const folder = makeFolder({ 'bikeshare_stations-bq-schema.json': read('bikeshare_stations-bq-schema.json'), 'bikeshare_stations.ndjson': read('bikeshare_stations.ndjson') });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.deepEqual(env.profile.tables.map((t) => t.name), ['bikeshare_stations']);
      const doc = env.documents.find((d) => d.sourceFile === 'bikeshare_stations-bq-schema.json');
      assert.ok(doc);
      assert.match(doc.sections.map((s) => s.text).join('\n'), /- `number_of_docks` \(INTEGER, nullable\)/);
      assert.match(messages(env), /A BigQuery table schema \(it describes the columns of a table\): read as a document/);
    } finally {
      folder.cleanup();
    }
    // (An array of records that merely has a `name` and a `type`, a list of products by kind, is data.)
    const products = makeFolder({ 'products.json': JSON.stringify([{ name: 'Lamp', type: 'light', price: 20 }, { name: 'Desk', type: 'furniture', price: 150 }, { name: 'Chair', type: 'furniture', price: 60 }]) });
    try {
      const env = await loadSemanticEnvironment(products.root);
      assert.deepEqual(env.profile.tables.map((t) => t.name), ['products']);
    } finally {
      products.cleanup();
    }
  });

  it("attaches a JSON Schema's property descriptions to the columns of the JSON files it describes", async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        time: { type: 'object', properties: { raw: { type: 'array', description: 'Month of the observation, as YYYY-MM' } } },
        rainfall: { type: 'array', title: 'Rain that fell over the month in millimetres' },
      },
    };
    const folder = makeFolder({
      'schema.json': JSON.stringify(schema),
      'a/kew.json': JSON.stringify({ name: 'kew', time: { raw: ['2024-01', '2024-02', '2024-03'] }, rainfall: [70.2, 51.5, 48] }),
    });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const described = (column: string) => env.semantics.columns.find((c) => c.table === 'kew' && c.column === column)?.description?.value;
      assert.equal(described('time.raw'), 'Month of the observation, as YYYY-MM');
      assert.equal(described('rainfall'), 'Rain that fell over the month in millimetres');
    } finally {
      folder.cleanup();
    }
  });
});

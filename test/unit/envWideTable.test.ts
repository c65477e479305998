import * as assert from 'node:assert/strict';
import { loadEnvironment } from '../../src/core/env/index';
import { makeFolder, queryImage } from '../support/envFixtures';

function wideCsv(columns: number, rows: number): string {
  const lines = [['id', ...Array.from({ length: columns - 1 }, (_, i) => `m${i}`)].join(',')];
  for (let r = 1; r <= rows; r++) lines.push([r, ...Array.from({ length: columns - 1 }, (_, i) => (i % 7 === 0 ? `t${r}` : r * i))].join(','));
  return lines.join('\n') + '\n';
}

describe('env: tables wider than SQLite allows', function () {
  this.timeout(60_000);

  it('stores a 2,501-column CSV as linked tables, says so, and the parts join back into whole rows', async () => {
    const folder = makeFolder({ 'sensor.csv': wideCsv(2501, 6), 'small.csv': 'a\n1\n' });
    try {
      const env = await loadEnvironment(folder.root);
      const tables = env.profile.tables.filter((t) => t.sourceFile === 'sensor.csv');
      assert.deepEqual(tables.map((t) => [t.name, t.columns.length, t.rowCount]), [['sensor', 2000, 6], ['sensor_part2', 503, 6]]);
      assert.equal(tables[0].columns[0].name, '_row_id');
      const warning = env.profile.diagnostics.find((d) => d.file === 'sensor.csv');
      assert.equal(warning?.severity, 'warning');
      assert.match(warning!.message, /^2501 columns, over SQLite's limit of 2000 per table: stored as 2 tables \(sensor, sensor_part2\) .*join them on _row_id/);
      const rows = await queryImage(env.image, 'SELECT s.id, s.m1997, p.m1998, p.m2498 FROM sensor s JOIN sensor_part2 p USING (_row_id) ORDER BY s.id');
      assert.deepEqual(rows, [1, 2, 3, 4, 5, 6].map((r) => [r, r * 1997, r * 1998, r * 2498]));
      assert.ok(env.profile.tables.some((t) => t.name === 'small'));
    } finally {
      folder.cleanup();
    }
  });

  it('profiles a 1,200-column table (its aggregates are read in several scans)', async () => {
    const folder = makeFolder({ 'w.csv': wideCsv(1200, 3) });
    try {
      const env = await loadEnvironment(folder.root);
      assert.deepEqual(env.profile.diagnostics, []);
      const table = env.profile.tables[0];
      assert.equal(table.columns.length, 1200);
      assert.deepEqual([table.columns[1199].min, table.columns[1199].max], [1198, 3 * 1198]);
    } finally {
      folder.cleanup();
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { folderQualifiedBaseNames } from '../../src/core/env/naming';
import { loadFiles, queryImage } from '../support/envFixtures';

const PUBLIC = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public');
const vendored = (file: string) => fs.readFileSync(path.join(PUBLIC, ...file.split('/')));

describe('env: the same file name in two folders, the same file twice', function () {
  this.timeout(60_000);

  it("names domestic/carrier.csv and international/carrier.csv by their folders (india-aviation-traffic)", async () => {
    const env = await loadFiles({
      'aggregated/domestic/carrier.csv': vendored('india-aviation-traffic/data/aggregated/domestic/carrier.csv'),
      'aggregated/international/carrier.csv': vendored('india-aviation-traffic/data/aggregated/international/carrier.csv'),
      'aggregated/international/carrier_quarterly.csv': vendored('india-aviation-traffic/data/aggregated/international/carrier_quarterly.csv'),
    });
    // Before: carrier and carrier_2.
    assert.deepEqual(
      env.profile.tables.map((t) => [t.sourceFile, t.name, t.rowCount]),
      [
        ['aggregated/domestic/carrier.csv', 'domestic_carrier', 3836],
        ['aggregated/international/carrier.csv', 'international_carrier', 3359],
        ['aggregated/international/carrier_quarterly.csv', 'carrier_quarterly', 3364],
      ],
    );
  });

  it('qualifies by as many folders as tell them apart, puts a year folder after the name, and leaves a file nearer the root plain', () => {
    const names = folderQualifiedBaseNames(['a/x/carrier.csv', 'b/x/carrier.csv', '1930/worldcup.json', '1934/worldcup.json', 'data/prices.csv', 'data/json/prices.json', 'sales.csv', 'sales.json', 'solo/only.csv']);
    assert.deepEqual(Object.fromEntries(names), {
      'a/x/carrier.csv': 'a_x_carrier',
      'b/x/carrier.csv': 'b_x_carrier',
      '1930/worldcup.json': 'worldcup_1930',
      '1934/worldcup.json': 'worldcup_1934',
      'data/prices.csv': 'prices',
      'data/json/prices.json': 'json_prices',
      // One folder: the allocator numbers them (sales, sales_2), as before.
      'sales.csv': 'sales',
      'sales.json': 'sales',
      'solo/only.csv': 'only',
    });
  });

  it('loads a CSV present twice once and names both paths (tcpd-time-series, the Port Authority file)', async () => {
    const file = 'air-passenger-traffic-per-month-port-authority-of-ny-nj-beginning-1977.csv';
    const bytes = vendored(`tcpd-time-series/data/datasets/jfk_passengers/${file}`);
    const env = await loadFiles({ [`jfk_passengers/${file}`]: bytes, [`lga_passengers/${file}`]: vendored(`tcpd-time-series/data/datasets/lga_passengers/${file}`), 'other/copy.csv': bytes });
    // Before: loaded twice, as …_1977 and …_1977_2, nothing saying they are the same bytes.
    assert.deepEqual(env.profile.tables.map((t) => [t.name, t.sourceFile]), [
      ['air_passenger_traffic_per_month_port_authority_of_ny_nj_beginning_1977', `jfk_passengers/${file}`],
      // The same bytes under another name are another file (two partitions holding only a header would be too).
      ['copy', 'other/copy.csv'],
    ]);
    const copy = env.profile.files.find((f) => f.file === `lga_passengers/${file}`);
    assert.equal(copy?.duplicateOf, `jfk_passengers/${file}`);
    assert.deepEqual(copy?.produced, []);
    const info = env.profile.diagnostics.find((d) => d.file === `lga_passengers/${file}`);
    assert.equal(info?.severity, 'info');
    assert.match(info?.message ?? '', new RegExp(`^The same bytes as jfk_passengers/${file.replace(/[.]/g, '\\.')} \\(56665 bytes, SHA-256 cb975797b67c…\\): loaded once, from jfk_passengers/.*, as air_passenger_traffic_per_month_port_authority_of_ny_nj_beginning_1977; this copy is not loaded again\\.$`));
    assert.deepEqual(await queryImage(env.image, 'SELECT count(*) FROM air_passenger_traffic_per_month_port_authority_of_ny_nj_beginning_1977'), [[1584]]);
  });

  it('loads two files of one name whose bytes differ, each named by its folder', async () => {
    const env = await loadFiles({ '2023/report.csv': 'a\n1\n', '2024/report.csv': 'a\n2\n' });
    assert.deepEqual(env.profile.tables.map((t) => t.name), ['report_2023', 'report_2024']);
  });
});

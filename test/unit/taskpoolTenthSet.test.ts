/**
 * Round-10 blind review faults on the tenth set (bike sharing, forecast hub, scenario workbook, solar partitions),
 * read and mended in round 10: snake_case table names where a file or a sheet reads better, units mangled, partitions
 * named by the letters their file names share, forecasts of two quantities averaged together, a split of the years
 * into historical and projected, a percentage of a temperature, and the rows of a day × hour grid counted.
 */
import * as assert from 'node:assert/strict';
import { humanize, measures } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';
import { namesTable, tableLabel } from '../../src/core/taskpool/revise';
import { makeFolder } from '../support/envFixtures';
import { environments, openFiles, tableOf } from '../support/familyContexts';
import { sheetXml, writeZip, xlsxParts } from '../support/zipWriter';

describe('task pool: files and sheets by their names, units as written, one quantity at a time (the tenth set)', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('names a CSV by its file and a sheet by its name, never by a snake_case table name', async () => {
    for (const [name, label] of [['uci-bike-sharing-dc', /\b(day|hour)\.csv\b/], ['mbie-edgs-assumptions-xlsx', /the '[^']+' sheet/]] as const) {
      const { session } = await env(name);
      const pool = await buildTaskPool(session.toolContext);
      assert.ok(pool.tasks.length > 0, name);
      assert.ok(pool.tasks.some((t) => label.test(t.question)), name);
      for (const task of pool.tasks) assert.doesNotMatch(task.question, /the (table|view) '[a-z0-9]+(_[a-z0-9]+){2,}'/, task.question);
    }
  });

  it('keeps a unit in parentheses as written, and says a codebook count as "the number of"', async () => {
    assert.equal(humanize('Fixed operating costs (NZD/kW/year)'), 'fixed operating costs (NZD/kW/year)');
    assert.equal(humanize('Total capacity installed (MW)'), 'total capacity installed (MW)');
    const { session } = await env('uci-bike-sharing-dc');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\b(the|average|total) (casual|registered)\b/, task.question);
    // An hourly grid of one row per day and hour: its row counts are coverage.
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /number of rows in hour\.csv/, task.question);
  });

  it('names solar partitions by their segment, forecast files by their date, and averages no forecast across its two targets', async () => {
    const solar = (await env('ea-distributed-solar-partitions')).context;
    const part = solar.semantics.partitions[0];
    assert.deepEqual(part.tables.map((t) => t.value).sort(), ['commercial', 'industrial', 'residential']);
    const hub = (await env('cdc-rsv-forecast-hub-parquet')).context;
    const forecasts = hub.semantics.partitions.find((p) => p.tables.length === 4)!;
    assert.equal(forecasts.key, 'date');
    assert.ok(forecasts.tables.every((t) => /^2025-\d\d-\d\d$/.test(t.value)));
    for (const table of [tableOf(hub, forecasts.view!), tableOf(hub, 'oracle_output')]) {
      assert.deepEqual(measures(hub, table).map((c) => c.name).filter((n) => /value/.test(n)), [], table.name);
    }
  });

  it('splits no series into historical and projected years, and compares temperatures in degrees', async () => {
    const { session } = await env('mbie-edgs-assumptions-xlsx');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /by status \('(Projected|Historical)'/, task.question);
    const bikes = (await buildTaskPool((await env('uci-bike-sharing-dc')).session.toolContext)).tasks;
    for (const task of bikes) assert.doesNotMatch(task.question, /percentage is their average temperature/, task.question);
    // (The codebook's first sentence names it: "Normalized temperature in Celsius".)
    assert.ok(bikes.some((t) => /By how much is their average (normalized )?temperature( in celsius)? higher/.test(t.question)));
  });
});

describe('task pool: the name a user knows a table by', function () {
  this.timeout(60_000);

  it('names a file by its name, a sheet by its name, and a sheet name two workbooks share with its workbook', async () => {
    const book = writeZip(xlsxParts(sheetXml(12)));
    const folder = makeFolder({ 'gdp.xlsx': book, 'population.xlsx': book, 'rides.csv': 'day,count\n2020-01-01,3\n2020-01-02,5\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const bySource = (file: string) => env.profile.tables.find((t) => t.sourceFile.endsWith(file))!.name;
      assert.equal(tableLabel(bySource('gdp.xlsx'), env.profile), "the 'Data' sheet of gdp.xlsx");
      assert.equal(tableLabel(bySource('population.xlsx'), env.profile), "the 'Data' sheet of population.xlsx");
      assert.equal(tableLabel(bySource('rides.csv'), env.profile), 'rides.csv');
      assert.ok(namesTable("How many rows in rides.csv have a count above 4?", bySource('rides.csv'), [], tableLabel(bySource('rides.csv'), env.profile)));
    } finally {
      folder.cleanup();
    }
  });
});

describe('task pool: values written several ways, and a table named by one of its columns', function () {
  this.timeout(120_000);

  it('groups by no column whose values differ only in case or spaces (a no-break space included), and calls no row by a column\'s name', async () => {
    const sources = ['Onshore', 'Offshore', 'offshore', 'Onshore\u00a0'];
    const funds = ['State', 'Treasury', 'Tribes', 'Reclamation'];
    const disbursed = ['year,fund,source,amount'];
    for (let i = 0; i < 160; i++) disbursed.push([2003 + (i % 16), funds[(i * 7) % 4], sources[(i * 3) % 4], 1000 + ((i * 7919) % 5000)].join(','));
    const files: Record<string, string> = { 'disbursements.csv': disbursed.join('\n') + '\n' };
    for (const country of ['albania', 'chile', 'peru']) {
      const rows = ['country,month,total_deaths,excess_deaths'];
      for (let m = 1; m <= 24; m++) rows.push([country, m, 900 + ((m * 37 + country.length * 11) % 300), (m * 13) % 90 - 20].join(','));
      files[`${country}_excess_deaths.csv`] = rows.join('\n') + '\n';
    }
    const opened = await openFiles(files);
    try {
      const pool = await buildTaskPool(opened.session.toolContext);
      assert.ok(pool.tasks.some((t) => t.tables.includes('disbursements')), pool.tasks.map((t) => t.question).join('\n'));
      for (const task of pool.tasks) {
        // `source` may appear only where its spellings are merged first.
        if (/\bsources?\b(?! country)/i.test(task.question)) assert.match(task.question, /letter case or surrounding spaces/, task.question);
        assert.doesNotMatch(task.question, /\b(how many|for how many|the) excess deaths (whose|is|are)\b/i, task.question);
      }
    } finally {
      await opened.session.dispose();
      opened.cleanup();
    }
  });
});

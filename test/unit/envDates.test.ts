import * as assert from 'node:assert/strict';
import type { DataEnvironment, TableProfile } from '../../src/core/env/types';
import { isoDateText } from '../../src/core/env/typeInference';
import { loadFiles, queryImage } from '../support/envFixtures';

const load = loadFiles;

function column(env: DataEnvironment, table: string, name: string): TableProfile['columns'][number] {
  const found = env.profile.tables.find((t) => t.name === table)?.columns.find((c) => c.name === name);
  assert.ok(found, `${table}.${name}`);
  return found;
}

/** One CSV column of the given values: its type, layout, stored values (in file order) and diagnostics. */
async function readColumn(values: string[]): Promise<{ type: string; layout?: string; stored: unknown[]; diagnostics: string[] }> {
  const env = await load({ 'd.csv': ['id,day', ...values.map((v, i) => `${i + 1},${v.includes(',') ? `"${v}"` : v}`)].join('\n') + '\n' });
  const day = column(env, 'd', 'day');
  const rows = await queryImage(env.image, 'SELECT day FROM d ORDER BY id');
  return { type: day.type, layout: day.dateLayout, stored: rows.map((r) => r[0]), diagnostics: env.profile.diagnostics.map((d) => `${d.severity}: ${d.message}`) };
}

describe('env: dates as files write them', () => {
  it('ISO dates and datetimes are stored as written', async () => {
    const read = await readColumn(['2014-07-01', '2014-12-31']);
    assert.deepEqual([read.type, read.layout, read.stored], ['date', 'YYYY-MM-DD', ['2014-07-01', '2014-12-31']]);
    const timed = await readColumn(['2024-01-15T11:00:00', '2024-02-01T12:30:00Z']);
    assert.deepEqual([timed.type, timed.stored], ['datetime', ['2024-01-15T11:00:00', '2024-02-01T12:30:00Z']]);
  });

  it('non-padded year-first dates (2014-7-1) load as dates in ISO form', async () => {
    const read = await readColumn(['2014-7-1', '2014-7-12', '2014-10-3']);
    assert.deepEqual([read.type, read.stored], ['date', ['2014-07-01', '2014-07-12', '2014-10-03']]);
    assert.deepEqual(read.diagnostics, []);
  });

  it('slashed and dotted year-first dates (2014/07/01, 2014.07.01)', async () => {
    assert.deepEqual((await readColumn(['2014/07/01', '2014/7/2'])).stored, ['2014-07-01', '2014-07-02']);
    assert.deepEqual((await readColumn(['2014.07.01', '2014.12.24'])).stored, ['2014-07-01', '2014-12-24']);
  });

  it('M/D/YYYY is decided by a value whose second part is above 12', async () => {
    const read = await readColumn(['7/1/2014', '7/13/2014', '12/2/2014']);
    assert.deepEqual([read.type, read.layout, read.stored], ['date', 'M/D/YYYY', ['2014-07-01', '2014-07-13', '2014-12-02']]);
    assert.deepEqual(read.diagnostics, []);
  });

  it('D/M/YYYY is decided by a value whose first part is above 12', async () => {
    const read = await readColumn(['1/7/2014', '13/7/2014', '2/12/2014', '01.02.2015']);
    // One separator per value, but a column may use - / . in different rows as long as the order is one.
    assert.deepEqual([read.type, read.layout, read.stored], ['date', 'D/M/YYYY', ['2014-07-01', '2014-07-13', '2014-12-02', '2015-02-01']]);
  });

  it('month/day order that no value decides is read month first, and said so', async () => {
    const read = await readColumn(['3/4/2020', '5/6/2020']);
    assert.deepEqual([read.type, read.stored], ['date', ['2020-03-04', '2020-05-06']]);
    assert.equal(read.diagnostics.length, 1);
    assert.match(read.diagnostics[0], /^info: Column 'day' is read as month\/day\/year \(M\/D\/YYYY\): no value has a part above 12/);
  });

  it('a late value past the first 64 KiB that decides the order rebuilds the table in that order', async () => {
    const values: string[] = [];
    for (let i = 0; i < 9000; i++) values.push(`${1 + (i % 12)}/${1 + (i % 12)}/2020`);
    values.push('25/12/2020');
    const read = await readColumn(values);
    assert.equal(read.layout, 'D/M/YYYY');
    assert.equal(read.stored[1], '2020-02-02');
    assert.equal(read.stored[values.length - 1], '2020-12-25');
  });

  it('month names: Jan 5, 2020 / January 5 2020 / 5 Jan 2020 / 05-Jan-2020', async () => {
    assert.deepEqual(await readColumn(['Jan 5, 2020', 'Sept 30, 2021', 'December 1, 2019']).then((r) => [r.type, r.layout, r.stored]), ['date', 'MMM D, YYYY', ['2020-01-05', '2021-09-30', '2019-12-01']]);
    assert.deepEqual((await readColumn(['5 Jan 2020', '05-Feb-2021', '1 March 2019'])).stored, ['2020-01-05', '2021-02-05', '2019-03-01']);
  });

  it('datetimes with 12-hour clocks and seconds', async () => {
    const read = await readColumn(['7/1/2014 6:05 PM', '7/13/2014 12:00:09 AM', '12/2/2014 09:30']);
    assert.deepEqual([read.type, read.layout, read.stored], ['datetime', 'M/D/YYYY HH:MM', ['2014-07-01 18:05', '2014-07-13 00:00:09', '2014-12-02 09:30']]);
  });

  it('impossible dates are not dates (2014-2-30, 13/13/2014)', async () => {
    assert.equal((await readColumn(['2014-2-30', '2014-3-1'])).type, 'text');
    assert.equal((await readColumn(['13/13/2014', '1/1/2014'])).type, 'text');
    // The padded ISO shapes (read character by character) hold the same limits as the patterns.
    for (const bad of ['2014-02-30', '2014-13-01', '2014-00-10', '2014-04-31', '2014-01-01T24:00:00', '2014-01-01 10:60:00', '2014-01-01 10:00:60']) {
      assert.equal((await readColumn([bad, '2014-03-01'])).type, 'text', bad);
    }
    const edge = await readColumn(['2016-02-29 23:59:59', '2014-12-31T00:00:00']);
    assert.deepEqual([edge.type, edge.stored], ['datetime', ['2016-02-29 23:59:59', '2014-12-31T00:00:00']]);
  });

  it('a column that mixes layouts stays text, with a warning naming the layouts', async () => {
    const read = await readColumn(['2014-07-01', '7/13/2014', '2014-08-01']);
    assert.deepEqual([read.type, read.stored], ['text', ['2014-07-01', '7/13/2014', '2014-08-01']]);
    assert.equal(read.diagnostics.length, 1);
    assert.match(read.diagnostics[0], /^warning: Column 'day' holds dates in 2 layouts: YYYY-MM-DD \(2 rows\), M\/D\/YYYY \(1 row\); kept as text/);
  });

  it('JSON strings get the same reading', async () => {
    const env = await load({ 'e.json': JSON.stringify([{ at: '7/1/2014' }, { at: '7/30/2014' }, { at: null }]) });
    assert.equal(column(env, 'e', 'at').dateLayout, 'M/D/YYYY');
    assert.deepEqual(await queryImage(env.image, 'SELECT at FROM e ORDER BY rowid'), [['2014-07-01'], ['2014-07-30'], [null]]);
  });

  it('numbers, codes and periods are not read as dates', async () => {
    assert.equal((await readColumn(['1.5', '2.25'])).type, 'real');
    assert.equal((await readColumn(['2020-01', '2020-02'])).type, 'text');
    assert.equal((await readColumn(['1-2', '3-4'])).type, 'text');
    assert.equal(isoDateText('not a date', 'mdy'), 'not a date');
  });
});

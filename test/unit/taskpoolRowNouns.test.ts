/**
 * What a question calls a table's rows, and which pairs it never compares, on public data nobody on the team wrote
 * (the faults the blind review of the questions found: "gapminders", "stores staff", "player bats", half-time goals
 * correlated with full-time goals, born correlated with a total of born + capture + rescue).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { derivedPair, inLocalCurrency, measures, rowName, rowsNoun, tableMention, things } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { environments, tableOf as table } from '../support/familyContexts';

describe('task pool: what a row is called, and pairs never compared', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('names rows by the table where its name or key says what a row is, by a key named after the rows, by a JSON array', async () => {
    const sample = (await env('sample')).context;
    assert.equal(things(sample, table(sample, 'orders'), 'many'), 'orders');
    assert.equal(things(sample, table(sample, 'customers'), 'one'), 'customer');
    // stores.json's staff arrays: the rows are staff, not "stores staff".
    const staff = sample.profile.tables.find((t) => t.parent && /staff/.test(t.name));
    assert.ok(staff, 'the staff child table');
    assert.equal(things(sample, staff, 'many'), 'staff');
    const lahman = (await env('lahman-baseball')).context;
    // People, keyed by playerID: players.
    assert.equal(things(lahman, table(lahman, lahman.profile.tables.find((t) => /^people$/i.test(t.name))!.name), 'many'), 'players');
    const sakila = (await env('sakila')).context;
    assert.equal(things(sakila, table(sakila, 'film'), 'many'), 'films');
  });

  it("calls a dataset's rows 'rows in the table …' with the schema's name, once, and 'rows' after", async () => {
    const gapminder = (await env('vega-gapminder')).context;
    const g = table(gapminder, 'gapminder');
    assert.equal(rowName(gapminder, g), undefined);
    assert.equal(things(gapminder, g, 'many'), 'rows in gapminder.json');
    assert.equal(rowsNoun(gapminder, g), 'rows');
    assert.equal(tableMention(gapminder, g), ' in gapminder.json');
    const bigMac = (await env('economist-big-mac')).context;
    for (const t of bigMac.profile.tables) assert.equal(rowName(bigMac, t), undefined, `${t.name}: a file of data or an index, no noun for its rows`);
    const pool = await buildTaskPool((await env('vega-gapminder')).session.toolContext, { max: 40 });
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /gapminders|gapminder health incomes/, task.question);
  });

  it('never pairs a count with its part, a total with its addends, or a quantity with its variant', async () => {
    const football = (await env('football-premier-league')).context;
    const view = football.semantics.partitions.find((p) => p.view)?.view;
    assert.ok(view, 'the seasons view');
    assert.ok(derivedPair(football, { table: view, column: 'fthg' }, { table: view, column: 'hthg' }), 'full-time goals hold the half-time goals');
    assert.ok(!derivedPair(football, { table: view, column: 'fthg' }, { table: view, column: 'ftag' }), 'home and away goals are two quantities');
    const cetaceans = (await env('pudding-cetaceans')).context;
    for (const part of ['born', 'capture', 'rescue']) assert.ok(derivedPair(cetaceans, { table: 'acquisitions', column: part }, { table: 'acquisitions', column: 'total' }), `${part} is an addend of total`);
    const bigMac = (await env('economist-big-mac')).context;
    const index = bigMac.profile.tables.find((t) => t.columns.some((c) => c.name === 'eur_raw') && t.columns.some((c) => c.name === 'eur'));
    if (index) assert.ok(derivedPair(bigMac, { table: index.name, column: 'eur' }, { table: index.name, column: 'eur_raw' }));
  });

  it("the README's three multi-step tasks of the Premier League fixture are the pool's, verbatim", async () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('Three tasks of the Premier League fixture'), readme.indexOf('## Scale-out'));
    const quoted = section.split('\n').filter((l) => l.startsWith('> ')).map((l) => l.slice(2));
    assert.equal(quoted.length, 3);
    const pool = await buildTaskPool((await env('football-premier-league')).session.toolContext);
    const questions = new Map(pool.tasks.map((t) => [t.question, t]));
    for (const q of quoted) {
      assert.ok(questions.has(q), `not in the pool: ${q}`);
      assert.ok(questions.get(q)!.evidence.length >= 3, q);
    }
  });

  it('takes no amount in local currency, exchange rate or coordinate as a measure', async () => {
    const bigMac = (await env('economist-big-mac')).context;
    const source = bigMac.profile.tables.find((t) => t.columns.some((c) => c.name === 'local_price') && t.columns.some((c) => /currency/.test(c.name)));
    assert.ok(source, 'a table of local prices with their currency');
    assert.ok(inLocalCurrency(source, source.columns.find((c) => c.name === 'local_price')!));
    const names = measures(bigMac, source).map((c) => c.name);
    assert.ok(!names.includes('local_price') && !names.includes('dollar_ex'), names.join(', '));
    assert.ok(names.includes('dollar_price'), `prices in one currency stay: ${names.join(', ')}`);
    const italy = (await env('dpc-covid-italy')).context;
    for (const t of italy.profile.tables) for (const c of measures(italy, t)) assert.doesNotMatch(c.name, /^(lat|long)$/, `${t.name}.${c.name}`);
  });
});

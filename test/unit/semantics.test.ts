/**
 * The semantic layer on public data nobody on the team wrote: partitions, parallel and derived tables, data
 * dictionaries reaching describe_table, derived columns, and the user's corrections file changing the profile and
 * the task pool (and a bad one changing nothing, with one error naming its line).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openAgentSession, type AgentSession } from '../../src/core/agent/session';
import { executeToolCall } from '../../src/core/agent/tools';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';
import type { SemanticEnvironment } from '../../src/core/semantics/types';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { filteredAggregateFamily } from '../../src/core/taskpool/families/index';
import { makeFolder } from '../support/envFixtures';
import { materialize, PUBLIC_FIXTURES, publicFixture } from '../support/publicFixtures';

const column = (env: SemanticEnvironment, table: string, name: string) => {
  const found = env.semantics.columns.find((c) => c.table === table && c.column === name);
  assert.ok(found, `${table}.${name}`);
  return found;
};

describe('semantics: partitions, parallel and derived tables', function () {
  this.timeout(240_000);

  it('reads 30 season files as one dataset with the season from the file name, and their union as a view', async () => {
    const env = await loadSemanticEnvironment(path.join(PUBLIC_FIXTURES, 'football-premier-league', 'data'));
    const files = fs.readdirSync(path.join(PUBLIC_FIXTURES, 'football-premier-league', 'data')).filter((f) => /^season-\d{4}\.csv$/.test(f));
    assert.equal(env.semantics.partitions.length, 1);
    const [partition] = env.semantics.partitions;
    assert.equal(partition.key, 'season');
    assert.equal(partition.tables.length, files.length);
    assert.deepEqual(partition.tables.map((t) => `season-${t.value}.csv`).sort(), [...files].sort());
    const view = env.profile.tables.find((t) => t.name === partition.view)!;
    assert.ok(view, 'the union view is in the image');
    // The view holds every match of every file, each with its season.
    const total = partition.tables.reduce((n, t) => n + env.profile.tables.find((x) => x.name === t.table)!.rowCount, 0);
    assert.equal(view.rowCount, total);
    // A column empty in the early seasons means what it means across all of them (home shots: an additive count).
    const early = partition.tables.find((t) => t.value === '9596')!.table;
    assert.equal(column(env, early, 'hs').role.value, 'measure');
    assert.equal(column(env, early, 'hs').additivity?.value, 'additive');
  });

  it('reads a folder of per-country files (names with spaces) as partitions by country', async () => {
    const env = await loadSemanticEnvironment(path.join(PUBLIC_FIXTURES, 'wri-power-plants', 'data'));
    const [partition] = env.semantics.partitions;
    assert.equal(partition?.key, 'country');
    assert.ok(partition.tables.some((t) => t.value === 'United Kingdom'));
    assert.equal(partition.view, 'all_countries');
  });

  it('keeps two variants of one table (raw and adjusted indices) apart, not as partitions', async () => {
    const env = await loadSemanticEnvironment(path.join(PUBLIC_FIXTURES, 'economist-big-mac', 'data'));
    assert.equal(env.semantics.partitions.length, 0);
  });

  it('tells parallel tables over a composite key from parent and child, and views from their base tables', async () => {
    const github = await loadSemanticEnvironment(path.join(PUBLIC_FIXTURES, 'github-innovation-graph', 'data'));
    const parallel = github.semantics.relationships.filter((r) => r.kind === 'one-to-one');
    assert.ok(parallel.some((r) => r.kind === 'one-to-one' && [r.left.table, r.right.table].sort().join() === 'developers,repositories'), JSON.stringify(parallel));
    assert.ok(!github.semantics.relationships.some((r) => r.kind === 'foreign-key' && [r.child.table, r.parent.table].sort().join() === 'developers,repositories'));
    const folder = await materialize(publicFixture('sakila'));
    try {
      const sakila = await loadSemanticEnvironment(folder.root);
      const derived = (table: string) => sakila.semantics.tables.find((t) => t.table === table);
      assert.equal(derived('customer_list')?.kind.value, 'derived');
      assert.ok(derived('customer_list')?.derivedFrom?.includes('customer'));
      // film_text repeats film's titles and descriptions row for row.
      assert.deepEqual(derived('film_text')?.derivedFrom, ['film']);
      // A view column copied from its base means what the base column means.
      assert.equal(column(sakila, 'customer_list', 'SID').role.value, 'identifier');
    } finally {
      folder.cleanup();
    }
  });

  it('finds columns computed from others (a total of quantity × price less a discount) and declared in a view', async () => {
    const folder = makeFolder({
      'lines.csv': ['line,quantity,unit_price,discount,total', ...Array.from({ length: 40 }, (_, i) => {
        const q = 1 + (i % 7);
        const p = 3.5 + (i % 5) * 2.25;
        const d = [0, 0.1, 0.05, 0.2][i % 4];
        return `${i + 1},${q},${p},${d},${(q * p * (1 - d)).toFixed(2)}`;
      })].join('\n'),
    });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const total = column(env, 'lines', 'total');
      assert.deepEqual(total.derivedFrom?.columns.sort(), ['discount', 'quantity', 'unit_price']);
      assert.equal(column(env, 'lines', 'unit_price').additivity?.value, 'non-additive');
      assert.equal(column(env, 'lines', 'quantity').additivity?.value, 'additive');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics: data dictionaries reach the agent', function () {
  this.timeout(240_000);
  let session: AgentSession;
  before(async () => {
    session = await openAgentSession(path.join(PUBLIC_FIXTURES, 'economist-big-mac', 'data'));
  });
  after(async () => session?.dispose());

  it('attaches the README codebook to the columns of every file, and describe_table shows role, unit and description', async () => {
    const env = session.env;
    assert.equal(column(env, 'big_mac_source_data', 'gdp_dollar').description?.value, 'GDP per person, in dollars');
    assert.equal(column(env, 'big_mac_source_data', 'gdp_dollar').description?.source.kind, 'dictionary');
    // "per person": a dictionary says what the name does not — averaged, not summed.
    assert.equal(column(env, 'big_mac_source_data', 'gdp_dollar').additivity?.value, 'non-additive');
    const observation = await executeToolCall(session.toolContext, { name: 'describe_table', arguments: JSON.stringify({ table: 'big_mac_source_data' }) });
    assert.ok(observation.ok);
    assert.match(observation.text, /\bmeaning\b/);
    assert.match(observation.text, /\bdescription\b/);
    assert.match(observation.text, /gdp_dollar\s*\|\s*real\s*\|\s*measure · avg \(not summed\)/);
    assert.match(observation.text, /GDP per person, in dollars/);
    assert.match(observation.text, /date\s*\|\s*date\s*\|\s*time · (day|month)/);
  });

  it('reads a Frictionless Table Schema as the dictionary of the files beside it, not as a table', async () => {
    const env = await loadSemanticEnvironment(path.join(PUBLIC_FIXTURES, 'football-premier-league', 'data'));
    assert.ok(!env.profile.tables.some((t) => t.sourceFile === 'schema.json'));
    assert.ok(env.documents.some((d) => d.name === 'schema.json'));
    const partition = env.semantics.partitions[0];
    assert.equal(column(env, partition.view!, 'fthg').description?.value, 'Full Time Home Team Goals');
    // `HR` is home red cards by the dictionary, not an hour of the day by its name.
    assert.equal(column(env, partition.view!, 'hr').role.value, 'measure');
  });
});

describe('semantics: the user corrects the profile in toffee.semantics.json', function () {
  this.timeout(240_000);
  const orders = ['order_id,region,status,amount,score', ...Array.from({ length: 60 }, (_, i) => `${i + 1},${['North', 'South', 'East', 'West'][i % 4]},${['shipped', 'open', 'cancelled'][i % 3]},${(10 + ((i * 37) % 90)).toFixed(2)},${1 + (i % 9)}`)].join('\n');

  it('changes a role, an additivity and a description, says it was the user, and the pool follows', async () => {
    const before = makeFolder({ 'orders.csv': orders });
    const after = makeFolder({
      'orders.csv': orders,
      'toffee.semantics.json': JSON.stringify({ columns: { 'orders.amount': { additivity: 'non-additive', description: 'Price of the order line in EUR', unit: 'EUR' }, 'orders.score': { role: 'ordinal' } } }, null, 2),
    });
    try {
      const plain = await openAgentSession(before.root);
      const corrected = await openAgentSession(after.root);
      try {
        assert.equal(column(plain.env, 'orders', 'amount').additivity?.value, 'additive');
        const amount = column(corrected.env, 'orders', 'amount');
        assert.equal(amount.additivity?.value, 'non-additive');
        assert.equal(amount.aggregation, 'avg');
        assert.deepEqual(amount.additivity?.source, { kind: 'user', file: 'toffee.semantics.json' });
        assert.equal(amount.description?.value, 'Price of the order line in EUR');
        assert.equal(column(corrected.env, 'orders', 'score').role.value, 'ordinal');
        assert.equal(corrected.env.semantics.corrections?.applied, 2);
        // The corrections file is settings, not data.
        assert.ok(!corrected.env.profile.tables.some((t) => t.sourceFile === 'toffee.semantics.json'));
        const pool = async (s: AgentSession) => (await buildTaskPool(s.toolContext, { families: [filteredAggregateFamily] })).tasks.find((t) => t.tables.includes('orders'))!;
        assert.match((await pool(plain)).question, /total (order )?amount/);
        assert.match((await pool(corrected)).question, /average (order )?amount/);
      } finally {
        await plain.dispose();
        await corrected.dispose();
      }
    } finally {
      before.cleanup();
      after.cleanup();
    }
  });

  it('a malformed file is one clear error naming its line, and none of it applies', async () => {
    const cases: Array<{ text: string; expect: RegExp; line: number }> = [
      { text: '{\n  "columns": {\n    "orders.amount": { "role": "measure" },\n    "orders.status": { "role": "category" }\n  }\n}\n', expect: /line 4 at columns\.orders\.status\.role: .*; no corrections applied/, line: 4 },
      { text: '{\n  "columns": {\n    "orders.amount": { "additivity": "non-additive" },\n    "orders.nope": { "role": "measure" }\n  }\n}\n', expect: /line 4: column orders\.nope is not in the data environment; no corrections applied/, line: 4 },
      { text: '{\n  "columns": {\n    "orders.amount": { "role": "measure", }\n  }\n}\n', expect: /not valid JSON at line 3/, line: 3 },
    ];
    for (const c of cases) {
      const folder = makeFolder({ 'orders.csv': orders, 'toffee.semantics.json': c.text });
      try {
        const env = await loadSemanticEnvironment(folder.root);
        const errors = env.profile.diagnostics.filter((d) => d.file === 'toffee.semantics.json');
        assert.equal(errors.length, 1, JSON.stringify(errors));
        assert.equal(errors[0].severity, 'error');
        assert.equal(errors[0].line, c.line);
        assert.match(errors[0].message, c.expect);
        // Nothing of the file applied, not even its valid entries.
        assert.equal(env.semantics.corrections, undefined);
        assert.equal(column(env, 'orders', 'amount').additivity?.value, 'additive');
        assert.equal(column(env, 'orders', 'amount').additivity?.source.kind, 'rule');
      } finally {
        folder.cleanup();
      }
    }
  });
});

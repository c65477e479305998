import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openAgentSession } from '../../src/core/agent/session';
import type { AgentSession } from '../../src/core/agent/session';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { nGrams, readBenchmarkFolder } from '../../src/core/taskpool/contamination';
import { buildTaskPool, MIN_POOL, rejectionsByReason, selectDiverse, taskPoolFamilies } from '../../src/core/taskpool/pool';
import type { TaskPoolResult } from '../../src/core/taskpool/pool';
import type { TaskSpec } from '../../src/core/taskpool/types';
import { checkEvidence, nearDuplicateOf } from '../../src/core/taskpool/validate';
import { tasksCommand } from '../../src/cli/commands/tasks';
import { sqlite3Rows } from '../support/sqlite3';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const sampleDir = path.join(repoRoot, 'media', 'samples', 'retail');
const fixtureSql = (name: string) => path.join(repoRoot, 'test', 'fixtures', name);

/** Builds a SQLite file from SQL text with Debian's sqlite3 CLI (the same tool the answer check uses). */
function sqliteFolder(sqlFile: string, fileName: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-taskpool-db-'));
  execFileSync('sqlite3', [path.join(dir, fileName)], { input: fs.readFileSync(sqlFile) });
  return dir;
}

/**
 * A real public database vendored under test/fixtures/public/<name>/, converted to SQLite by the documented script;
 * checks each table's row count against the number of INSERT statements for it in the source file.
 */
function publicFolder(name: string, schema: string, data: string, dbName: string): string {
  const base = path.join(repoRoot, 'test', 'fixtures', 'public', name);
  const script = execFileSync('node', [path.join(repoRoot, 'scripts', 'fixtures', 'oracleToSqlite.mjs'), path.join(base, schema), path.join(base, data)], { encoding: 'utf8' });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-taskpool-public-'));
  execFileSync('sqlite3', [path.join(dir, dbName)], { input: script });
  const source = fs.readFileSync(path.join(base, data), 'utf8');
  const inserts = new Map<string, number>();
  for (const m of source.matchAll(/INSERT INTO\s+"?(\w+)"?/gi)) inserts.set(m[1].toLowerCase(), (inserts.get(m[1].toLowerCase()) ?? 0) + 1);
  assert.ok(inserts.size > 0);
  for (const [table, count] of inserts) assert.equal(Number(sqlite3Rows(path.join(dir, dbName), `SELECT COUNT(*) FROM "${table}"`)[0][0]), count, `${name}.${table} row count`);
  return dir;
}

// The data files sit in data/, apart from the README and LICENSE, so the environment holds the data alone (the README
// states findings an agent could read instead of computing).
const vegaDir = path.join(repoRoot, 'test', 'fixtures', 'public', 'vega-flights', 'data');

/** A copy of a vendored data folder (the tests delete their folders afterwards). */
function copiedFolder(source: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-taskpool-public-'));
  for (const file of fs.readdirSync(source)) if (/\.(csv|json)$/.test(file)) fs.copyFileSync(path.join(source, file), path.join(dir, file));
  return dir;
}

/** Records per data file of the vega-flights folder, counted without TOFFEE: JSON array length, CSV lines less the header. */
function vegaRecordCounts(): Record<string, number> {
  const lines = (file: string) => fs.readFileSync(path.join(vegaDir, file), 'utf8').split('\n').filter((l) => l.trim() !== '').length - 1;
  return {
    flights_5k: (JSON.parse(fs.readFileSync(path.join(vegaDir, 'flights-5k.json'), 'utf8')) as unknown[]).length,
    airports: lines('airports.csv'),
    flights_airport: lines('flights-airport.csv'),
  };
}

/** Runs SQL with the sqlite3 CLI against the environment image: an execution independent of sql.js. */
function pearson(pairs: Array<[number, number]>): number {
  const n = pairs.length;
  const mx = pairs.reduce((s, p) => s + p[0], 0) / n;
  const my = pairs.reduce((s, p) => s + p[1], 0) / n;
  let cov = 0;
  let sx = 0;
  let sy = 0;
  for (const [x, y] of pairs) {
    cov += (x - mx) * (y - my);
    sx += (x - mx) ** 2;
    sy += (y - my) ** 2;
  }
  return cov / Math.sqrt(sx * sy);
}

/** Every answer key against sqlite3's own execution of the task's last evidence step. */
function assertAnswersIndependently(tasks: TaskSpec[], image: Uint8Array): void {
  const dbFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-taskpool-image-')), 'image.sqlite');
  fs.writeFileSync(dbFile, image);
  try {
    for (const task of tasks) {
      const last = task.evidence[task.evidence.length - 1];
      if (last.tool === 'run_sql') {
        const rows = sqlite3Rows(dbFile, last.code);
        const stated = task.answer.type === 'list' ? rows.map((r) => String(r[0])).join(', ') : String(rows[0]?.[0]);
        assert.ok(matchesAnswer(task.answer, stated), `${task.id} (${task.question}): sqlite3 says ${stated}, key ${JSON.stringify(task.answer)}`);
      } else if (task.family === 'python-correlation') {
        // (The statistics programs' Python steps are recomputed from raw rows in taskpoolCompositionsC.test.ts.)
        const query = /^query = (".*")$/m.exec(last.code)![1];
        const rows = sqlite3Rows(dbFile, JSON.parse(query)) as Array<[number, number]>;
        const r = pearson(rows.map(([x, y]) => [Number(x), Number(y)]));
        assert.ok(task.answer.type === 'number' && Math.abs(task.answer.value - r) <= task.answer.tolerance, `${task.id}: ${JSON.stringify(task.answer)} vs ${r}`);
      }
    }
  } finally {
    fs.rmSync(path.dirname(dbFile), { recursive: true, force: true });
  }
}

function assertWellFormedPool(result: TaskPoolResult, minTasks: number, minFamilies: number): void {
  const { tasks } = result;
  assert.ok(tasks.length >= minTasks, `only ${tasks.length} tasks`);
  const families = new Set(tasks.map((t) => t.family));
  assert.ok(families.size >= minFamilies, `only families ${[...families].join(', ')}`);
  assert.equal(new Set(tasks.map((t) => t.id)).size, tasks.length, 'duplicate ids');
  assert.equal(new Set(tasks.map((t) => t.question)).size, tasks.length, 'duplicate questions');
  tasks.forEach((t, i) => assert.equal(nearDuplicateOf(t, tasks.slice(0, i)), undefined, `${t.id} duplicates an earlier task`));
  const nodeIds = new Set(result.graph.nodes.map((n) => n.id));
  for (const edge of result.graph.edges) assert.ok(nodeIds.has(edge.from) && nodeIds.has(edge.to), `dangling edge ${edge.from} → ${edge.to}`);
  for (const task of tasks) {
    assert.equal(task.validation?.status, 'valid');
    assert.deepEqual(task.validation?.reasons, []);
    assert.equal(task.validation?.noDataCheck, 'skipped');
    assert.ok(task.validation?.replayed && task.validation.evidenceStable);
    assert.ok(task.dependency || task.family === 'filtered-aggregate', `${task.family} has no dependency kind`);
    const rubric = task.rubric!;
    assert.ok(rubric.some((c) => c.check.kind === 'final_value'));
    const positive = rubric.filter((c) => c.polarity === 'positive').reduce((s, c) => s + c.weight, 0);
    assert.ok(Math.abs(positive - 1) < 0.01, `${task.id}: positive weights sum to ${positive}`);
    for (const criterion of rubric) {
      assert.ok(criterion.anchors.length > 0, `${task.id} ${criterion.id} has no anchor`);
      for (const anchor of criterion.anchors) assert.ok(nodeIds.has(anchor), `${task.id} ${criterion.id} anchors unknown node ${anchor}`);
      if (criterion.polarity === 'negative') assert.ok(criterion.weight < 0 && criterion.check.kind === 'uses_table' && !task.tables.includes(criterion.check.table));
    }
    if (task.difficulty.joins > 0) assert.ok(rubric.some((c) => c.check.kind === 'joins_on'), `${task.id} joins but no joins_on criterion`);
    // Every file has a role; the files holding the task's tables are core.
    assert.equal(task.roles!.length, result.graph.nodes.filter((n) => n.kind === 'file').length);
    for (const table of task.tables) assert.ok(task.roles!.some((r) => r.role === 'core' && r.items.includes(table)), `${task.id}: ${table} not core`);
  }
  for (const rejected of result.rejected) assert.ok(rejected.reasons.length > 0 && rejected.reasons.every((r) => r.trim() !== ''));
  // The graph survives JSON.
  assert.deepEqual(JSON.parse(JSON.stringify(result.graph)), result.graph);
}

describe('task pool', function () {
  this.timeout(300_000);

  describe('on the retail sample', () => {
    let session: AgentSession;
    let result: TaskPoolResult;
    before(async () => {
      session = await openAgentSession(sampleDir);
      result = await buildTaskPool(session.toolContext, { max: 60 });
    });
    after(async () => session?.dispose());

    it('builds ≥ 20 valid tasks from ≥ 6 families with anchored rubrics, roles and a graph', () => {
      assertWellFormedPool(result, 20, 6);
      const kinds = new Set(result.tasks.map((t) => t.dependency));
      for (const kind of ['join-key', 'group-contrast', 'correlation', 'change-over-time', 'top-k', 'conditional-rate', 'outlier', 'reconciliation', 'document-parameter', 'data-quality']) {
        assert.ok(kinds.has(kind as TaskSpec['dependency']), `no ${kind} task on the sample`);
      }
    });

    it('has answer keys equal to an independent sqlite3 execution of the evidence', () => {
      assertAnswersIndependently([...result.tasks, ...result.unselected], session.env.image);
    });

    it('finds the planted patterns: the late-order, low-stock and VIP rules from the document, order totals that disagree with their lines, duplicate customer ids', () => {
      const late = result.tasks.find((t) => t.family === 'document-parameter' && /late/.test(t.question))!;
      assert.ok(late, 'no late-order task');
      assert.match(late.evidence[0].code, /julianday\("shipped_at"\) - julianday\("ordered_at"\) > 5/);
      assert.deepEqual(late.documents, [{ document: 'business_rules.md', section: 'Late orders' }]);
      assert.ok(late.rubric!.some((c) => c.check.kind === 'uses_document' && c.anchors[0] === 'section:business_rules.md#Late orders'));
      assert.ok(late.rubric!.some((c) => c.check.kind === 'uses_parameter' && c.check.value === 5));
      assert.ok(result.graph.edges.some((e) => e.kind === 'references' && e.from === 'section:business_rules.md#Late orders' && e.to === 'column:orders.shipped_at'));
      // Definitions beyond "column comparator number": a column compared with a column, and a threshold on a metric the
      // document defines in terms of other definitions (VIP = lifetime net spend > $2,000, spend = revenue − refunds,
      // revenue = a formula over order lines), counted per customer.
      const all = [...result.tasks, ...result.unselected];
      const lowStock = all.find((t) => t.family === 'document-parameter' && /low on stock/.test(t.question))!;
      assert.ok(lowStock, 'no low-on-stock task');
      assert.match(lowStock.evidence[0].code, /FROM "stock_levels" WHERE "on_hand" < "reorder_point"/);
      const vip = all.find((t) => t.family === 'document-parameter' && /VIP customers/.test(t.question))!;
      assert.ok(vip, 'no VIP task');
      assert.deepEqual(vip.documents, [{ document: 'business_rules.md', section: 'Customers' }]);
      assert.deepEqual([...vip.tables].sort(), ['order_items', 'orders', 'returns']);
      const image = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-vip-')), 'image.sqlite');
      fs.writeFileSync(image, session.env.image);
      const independent = sqlite3Rows(
        image,
        `WITH rev AS (SELECT o.customer_id AS c, SUM(i.quantity * i.unit_price * (1 - i.discount)) AS v FROM order_items i JOIN orders o ON o.order_id = i.order_id WHERE o.status != 'cancelled' GROUP BY o.customer_id),
              ref AS (SELECT customer_id AS c, SUM(refund_amount) AS v FROM returns WHERE status = 'approved' GROUP BY customer_id)
         SELECT COUNT(*) FROM rev LEFT JOIN ref ON ref.c = rev.c WHERE rev.v - COALESCE(ref.v, 0) > 2000`,
      );
      fs.rmSync(path.dirname(image), { recursive: true, force: true });
      assert.ok(vip.answer.type === 'number' && vip.answer.value === Number(independent[0][0]) && vip.answer.value > 0, `VIP ${JSON.stringify(vip.answer)} vs ${independent[0][0]}`);
      const reconciliation = result.tasks.find((t) => t.family === 'reconciliation')!;
      assert.match(reconciliation.question, /order total/);
      assert.ok(result.graph.edges.some((e) => e.kind === 'reconciliation' && e.from === 'column:orders.order_total'));
      assert.ok(result.tasks.some((t) => t.family === 'data-quality' && /customer id values appear more than once/.test(t.question)));
      assert.ok(result.graph.edges.some((e) => e.kind === 'join_key' && e.from === 'column:order_items.order_id' && e.to === 'column:orders.order_id'));
    });

    it('replay catches a wrong answer key, and selection covers every family before repeating one', async () => {
      const task = structuredClone(result.tasks.find((t) => t.answer.type === 'number')!);
      if (task.answer.type === 'number') task.answer.value += 1000;
      const check = await checkEvidence(task, session.toolContext);
      assert.equal(check.replayed, false);
      assert.match(check.reasons.join('\n'), /replay mismatch/);
      const all = [...result.tasks, ...result.unselected];
      const familyCount = new Set(all.map((t) => t.family)).size;
      const picked = selectDiverse(all, familyCount, 7);
      assert.equal(new Set(picked.map((t) => t.family)).size, familyCount);
      assert.deepEqual(selectDiverse(all, 10, 7).map((t) => t.id), selectDiverse(all, 10, 7).map((t) => t.id));
    });

    it('rejects tasks whose file or question is in a benchmark folder, with the reason', async () => {
      const bench = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-bench-'));
      try {
        fs.copyFileSync(path.join(sampleDir, 'products.csv'), path.join(bench, 'copied.csv'));
        const victim = result.tasks.find((t) => !t.tables.includes('products'))!;
        fs.writeFileSync(path.join(bench, 'dev.jsonl'), JSON.stringify({ id: 1, question: `Some preamble. ${victim.question}` }) + '\nnot json\n');
        const { reference, notes } = readBenchmarkFolder(bench);
        assert.equal(reference.fileHashes.length, 2);
        assert.match(notes.join('\n'), /not valid JSON/);
        const audited = await buildTaskPool(session.toolContext, { max: 60, contamination: [reference] });
        assert.ok(!audited.tasks.some((t) => t.tables.includes('products')), 'a products task survived');
        assert.ok(!audited.tasks.some((t) => t.id === victim.id), 'the copied question survived');
        const reasons = audited.rejected.filter((r) => r.reasons.some((x) => x.startsWith('contaminated')));
        assert.ok(reasons.some((r) => r.reasons.some((x) => /products\.csv is identical \(SHA-256\)/.test(x))));
        assert.ok(reasons.some((r) => r.id === victim.id && r.reasons.some((x) => /13-gram/.test(x))));
        assert.ok(rejectionsByReason(audited.rejected).contaminated >= 2);
        assert.equal(nGrams('one two three').size, 1);
      } finally {
        fs.rmSync(bench, { recursive: true, force: true });
      }
    });
  });

  for (const [name, makeFolder, recordCounts] of [
    ['a Chinook-shaped music store', () => sqliteFolder(fixtureSql('chinook.sql'), 'chinook.sqlite'), undefined],
    ['a Northwind-shaped trading company', () => sqliteFolder(fixtureSql('northwind.sql'), 'northwind.sqlite'), undefined],
    ["Oracle's HR sample schema (public data)", () => publicFolder('oracle-hr', 'schema.sql', 'hr_populate.sql', 'hr.sqlite'), undefined],
    ["the Vega project's flights and airports (public data, CSV + JSON)", () => copiedFolder(vegaDir), vegaRecordCounts],
  ] as const) {
    describe(`on ${name}`, () => {
      let dir: string;
      let session: AgentSession;
      let result: TaskPoolResult;
      before(async () => {
        dir = makeFolder();
        session = await openAgentSession(dir);
        result = await buildTaskPool(session.toolContext, { max: 60 });
      });
      after(async () => {
        await session?.dispose();
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      });

      it('builds ≥ 12 valid tasks from ≥ 6 families, answer keys equal to sqlite3', () => {
        if (recordCounts) {
          const counts = recordCounts();
          assert.deepEqual(Object.fromEntries(session.env.profile.tables.map((t) => [t.name, t.rowCount])), counts);
        }
        // A plain schema gives few multi-step programs, and the pool is then smaller rather than mostly short (MIN_POOL).
        assertWellFormedPool(result, MIN_POOL, 6);
        assertAnswersIndependently([...result.tasks, ...result.unselected], session.env.image);
        assert.ok(result.tasks.some((t) => t.difficulty.joins > 0 && t.rubric!.some((c) => c.check.kind === 'joins_on')));
        assert.ok(result.notes.includes('no documents: no document-grounded tasks'));
        assert.equal(result.families.find((f) => f.id === 'document-parameter')!.candidates, 0);
      });
    });
  }

  describe('on the Vega flights (what real files need: slashed datetimes, code keys, signed delays, a route list)', () => {
    let dir: string;
    let session: AgentSession;
    let result: TaskPoolResult;
    const flights = JSON.parse(fs.readFileSync(path.join(vegaDir, 'flights-5k.json'), 'utf8')) as Array<{ date: string; delay: number; distance: number; origin: string; destination: string }>;
    before(async () => {
      dir = copiedFolder(vegaDir);
      session = await openAgentSession(dir);
      result = await buildTaskPool(session.toolContext, { max: 60 });
    });
    after(async () => {
      await session?.dispose();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });
    const all = () => [...result.tasks, ...result.unselected];

    it('reads "2001/01/01 06:55" as a datetime, so change over time has months (checked against the file)', () => {
      assert.equal(session.env.profile.tables.find((t) => t.name === 'flights_5k')!.columns.find((c) => c.name === 'date')!.type, 'datetime');
      const byMonth = new Map<string, number>();
      for (const f of flights) byMonth.set(f.date.slice(0, 7).replace('/', '-'), (byMonth.get(f.date.slice(0, 7).replace('/', '-')) ?? 0) + 1);
      const months = [...byMonth.keys()].sort();
      const increases = months.slice(1).map((m, i) => [m, byMonth.get(m)! - byMonth.get(months[i])!] as const).sort((a, b) => b[1] - a[1]);
      const counted = all().find((t) => t.family === 'change-over-time' && /number of flights over the month before\?$/.test(t.question))!;
      assert.ok(counted, 'no month-over-month flight count task');
      assert.deepEqual(counted.answer, { type: 'string', value: increases[0][0] });
    });

    it('finds origin and destination → airports.iata by values, and asks through each column by name', () => {
      for (const column of ['origin', 'destination']) {
        for (const child of ['flights_5k', 'flights_airport']) {
          assert.ok(result.graph.edges.some((e) => e.kind === 'join_key' && e.from === `column:${child}.${column}` && e.to === 'column:airports.iata' && /found by values/.test(e.note ?? '')), `${child}.${column}`);
        }
      }
      const ranked = all().filter((t) => t.family === 'join-count-top-k' && t.tables.includes('flights_5k'));
      assert.deepEqual(ranked.map((t) => /as (origin|destination)[,?]/.exec(t.question)?.[1]).sort(), ['destination', 'origin']);
      // Named by the airport's name, not its code.
      for (const t of ranked) assert.ok(t.answer.type === 'list' && t.answer.values.every((v) => / /.test(v)), JSON.stringify(t.answer));
      assert.ok(!all().some((t) => /5ks\b/.test(t.question)));
    });

    it('counts the flights on routes missing from the route list, as the files say', () => {
      const routes = new Set(fs.readFileSync(path.join(vegaDir, 'flights-airport.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').slice(0, 2).join('>')));
      const missing = flights.filter((f) => !routes.has(`${f.origin}>${f.destination}`)).length;
      const task = all().find((t) => t.family === 'reconciliation' && /origin, destination/.test(t.question))!;
      assert.ok(task, 'no route reconciliation task');
      assert.ok(missing > 0 && task.answer.type === 'number' && task.answer.value === missing, `${JSON.stringify(task.answer)} vs ${missing}`);
    });

    it('groups by what has 2–50 values (not the 57 states), and asks a correlation only where it is more than noise', () => {
      // airports.state has 57 values: too many to compare; the pool must not group the flights by it.
      assert.ok(!all().some((t) => t.evidence.some((e) => /GROUP BY p\."state"/.test(e.code))), 'grouped by 57 states');
      const r = pearson(flights.map((f) => [f.delay, f.distance]));
      const t = (r * Math.sqrt(flights.length - 2)) / Math.sqrt(1 - r * r);
      const python = all().find((task) => task.family === 'python-correlation');
      // delay vs distance over 5,000 flights: a t-test of r decides whether the correlation is a question worth asking.
      assert.equal(python !== undefined, Math.abs(t) >= 2 && Math.abs(r) >= 0.1, `r = ${r}, t = ${t}`);
      if (python) assert.ok(python.answer.type === 'number' && Math.abs(python.answer.value - r) < 1e-4);
    });

    it('keeps tasks with the same answer over different columns, and rejects the same dependency read twice', () => {
      const a = all().find((t) => t.family === 'join-count-top-k')!;
      const twin: TaskSpec = { ...structuredClone(a), id: 'twin', question: 'A different wording entirely.' };
      assert.equal(nearDuplicateOf(twin, [a]), a.id);
      twin.anchors = twin.anchors!.map((x) => x.replace(/\.(origin|destination)$/, '.other'));
      assert.equal(nearDuplicateOf(twin, [a]), undefined);
    });
  });

  it('degrades to fewer tasks with a clear summary on one table, no numbers, empty tables, or no tables', async () => {
    const cases: Array<{ files: Record<string, string>; expect: RegExp }> = [
      { files: { 'items.csv': ['name,colour', ...Array.from({ length: 30 }, (_, i) => `item${i},${['red', 'green', 'blue'][i % 3]}`)].join('\n') }, expect: /no numeric columns/ },
      { files: { 'empty.csv': 'a,b\n', 'tiny.csv': 'x,y\n1,2\n' }, expect: /empty tables skipped: empty|fewer than 10 rows/ },
      { files: { 'notes.md': '# Notes\n\nNothing here is data.\n' }, expect: /no tables/ },
    ];
    for (const c of cases) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-taskpool-degenerate-'));
      for (const [file, text] of Object.entries(c.files)) fs.writeFileSync(path.join(dir, file), text);
      const session = await openAgentSession(dir);
      try {
        const result = await buildTaskPool(session.toolContext, {});
        assert.match(result.notes.join('\n'), c.expect);
        assert.equal(result.families.length, taskPoolFamilies.length);
        for (const f of result.families) if (f.candidates === 0) assert.ok(f.note && f.note.length > 0);
        for (const task of result.tasks) assert.equal(task.validation?.status, 'valid');
      } finally {
        await session.dispose();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('`toffee tasks` writes one TaskSpec per line and prints counts and rejections', async () => {
    const dir = sqliteFolder(fixtureSql('northwind.sql'), 'northwind.sqlite');
    const out = path.join(dir, 'tasks.jsonl');
    const logs: string[] = [];
    const original = { log: console.log, error: console.error };
    console.log = (...args: unknown[]) => logs.push(args.join(' '));
    console.error = () => {};
    try {
      const code = await tasksCommand.run([dir, '--max', '12', '--out', out, '--seed', '3']);
      assert.equal(code, 0);
    } finally {
      console.log = original.log;
      console.error = original.error;
    }
    try {
      const lines = fs.readFileSync(out, 'utf8').trim().split('\n');
      assert.equal(lines.length, 12);
      for (const line of lines) {
        const task = JSON.parse(line) as TaskSpec;
        for (const key of ['question', 'answer', 'family', 'evidence', 'rubric', 'roles', 'difficulty'] as const) assert.ok(task[key] !== undefined, `missing ${key}`);
      }
      assert.ok(new Set(lines.map((l) => (JSON.parse(l) as TaskSpec).family)).size >= 6);
      const text = logs.join('\n');
      assert.match(text, /^family\s+candidates\s+valid\s+selected/m);
      assert.match(text, /12 tasks selected \(easy \d+, medium \d+, hard \d+\)/);
      assert.match(text, /No-data check skipped for 12 tasks/);
      await assert.rejects(tasksCommand.run([dir, '--max', 'zero']), /--max must be a positive integer/);
      await assert.rejects(tasksCommand.run([path.join(dir, 'missing')]), /not a folder/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

import * as assert from 'node:assert/strict';
import { executeToolCall, searchDocuments, toolNames, tools } from '../../src/core/agent/tools';
import { capText, parseRenderedTable, renderTable } from '../../src/core/agent/render';
import type { AgentSession } from '../../src/core/agent/session';
import { openShop } from './agentFixture';

describe('agent tools', function () {
  this.timeout(120_000);
  let shop: Awaited<ReturnType<typeof openShop>>;
  let session: AgentSession;
  let orders: string;
  let customers: string;
  const call = (name: string, args: unknown) => executeToolCall(session.toolContext, { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

  before(async () => {
    shop = await openShop();
    session = shop.session;
    orders = session.env.profile.tables.find((t) => t.sourceFile === 'orders.csv')!.name;
    customers = session.env.profile.tables.find((t) => t.sourceFile === 'customers.csv')!.name;
  });
  after(async () => shop?.close());

  it('exports one JSON-schema function tool per zod schema', () => {
    assert.deepEqual(tools.map((t) => t.function.name), toolNames);
    assert.deepEqual(toolNames, ['list_tables', 'describe_table', 'sample_rows', 'run_sql', 'run_python', 'search_documents', 'read_document', 'final_answer']);
    const runSql = tools.find((t) => t.function.name === 'run_sql')!;
    assert.equal(runSql.type, 'function');
    assert.equal((runSql.function.parameters as { type: string }).type, 'object');
    assert.deepEqual((runSql.function.parameters as { required: string[] }).required, ['query']);
    const final = tools.find((t) => t.function.name === 'final_answer')!.function.parameters as { required: string[] };
    assert.deepEqual([...final.required].sort(), ['answer', 'explanation']);
    const read = tools.find((t) => t.function.name === 'read_document')!.function.parameters as { required: string[] };
    assert.deepEqual(read.required, ['name']);
  });

  it('lists and describes tables from the profile', async () => {
    const listed = await call('list_tables', {});
    assert.equal(listed.ok, true);
    assert.ok(listed.data.kind === 'tables' && listed.data.tables.some((t) => t.name === orders && t.rows === 240));
    assert.match(listed.text, new RegExp(`${orders} \\| 240 \\|`));
    const described = await call('describe_table', { table: orders });
    assert.equal(described.ok, true);
    assert.match(described.text, /amount \| real/);
    assert.match(described.text, /^Table .* \(240 rows, \d+ columns, from orders\.csv\)/);
    // Case and quotes are forgiven, as SQLite forgives them.
    assert.equal((await call('describe_table', { table: `"${orders.toUpperCase()}"` })).ok, true);
  });

  it('samples rows and runs SQL through the sandbox', async () => {
    const sample = await call('sample_rows', { table: customers, n: 3 });
    assert.equal(sample.ok, true);
    assert.ok(sample.data.kind === 'rows' && sample.data.rows.length === 3);
    const result = await call('run_sql', { query: `SELECT status, COUNT(*) AS n FROM ${orders} GROUP BY status ORDER BY status` });
    assert.equal(result.ok, true);
    const parsed = parseRenderedTable(result.text)!;
    assert.deepEqual(parsed.columns, ['status', 'n']);
    assert.deepEqual(parsed.rows.map((r) => r[0]), ['cancelled', 'returned', 'shipped']);
    assert.equal(parsed.rows.reduce((sum, r) => sum + Number(r[1]), 0), 240);
  });

  it('turns every kind of bad call into an error observation, never a throw', async () => {
    const cases: Array<[string, unknown, string, RegExp]> = [
      ['run_sql', '{"query": "SELECT 1', 'malformed_arguments', /not valid JSON/],
      ['run_sql', '[1,2]', 'malformed_arguments', /JSON object was expected/],
      ['run_sql', { sql: 'SELECT 1' }, 'invalid_arguments', /query/],
      ['sample_rows', { table: orders, n: 500 }, 'invalid_arguments', /n:/],
      ['drop_everything', {}, 'unknown_tool', /unknown tool 'drop_everything'/],
      ['describe_table', { table: 'ordrs' }, 'unknown_table', /no table named 'ordrs'. Tables: /],
      ['run_sql', { query: `SELECT totl FROM ${orders}` }, 'sql', /no such column: totl/],
      ['run_sql', { query: `DELETE FROM ${orders}` }, 'refused', /./],
      ['read_document', { name: 'nope.md' }, 'unknown_document', /no document named 'nope.md'/],
      ['read_document', { name: 'rules.md', section: 'Pricing' }, 'unknown_document', /Sections: .*Revenue/],
    ];
    for (const [name, args, kind, message] of cases) {
      const observation = await call(name, args);
      assert.equal(observation.ok, false, name);
      assert.equal(observation.errorKind, kind, `${name} ${JSON.stringify(args)}: ${observation.text}`);
      assert.match(observation.text, /^Error: /);
      assert.match(observation.text, message);
    }
  });

  it('searches document sections by keyword and reads a section or the whole document', async () => {
    const hits = searchDocuments(session.env.documents, 'large order discount');
    assert.ok(hits.length >= 1);
    assert.equal(hits[0].section, 'Large orders');
    const search = await call('search_documents', { query: 'which orders count as revenue' });
    assert.equal(search.ok, true);
    assert.match(search.text.split('\n')[0], /rules\.md § Revenue/);
    const section = await call('read_document', { name: 'rules.md', section: 'revenue' });
    assert.equal(section.ok, true);
    assert.match(section.text, /^## Revenue\nRevenue counts shipped orders only/);
    const whole = await call('read_document', { name: 'rules.md' });
    assert.match(whole.text, /Large orders/);
    assert.match(whole.text, /Regions/);
    const capped = await executeToolCall({ ...session.toolContext, limits: { maxChars: 80 } }, { name: 'read_document', arguments: '{"name":"rules.md"}' });
    assert.ok(capped.data.kind === 'document' && capped.data.truncated);
    assert.match(capped.text, /\[truncated: \d+ more characters\]$/);
  });

  it('runs Python that reads tables with sql()', async () => {
    const result = await call('run_python', { code: `rows = sql("SELECT COUNT(*) AS n FROM ${orders}")\nprint(rows[0]["n"] * 2)` });
    assert.equal(result.ok, true, result.text);
    assert.equal(result.text.trim(), '480');
    const broken = await call('run_python', { code: 'print(undefined_name)' });
    assert.equal(broken.ok, false);
    assert.equal(broken.errorKind, 'python');
    assert.match(broken.text, /NameError/);
  });

  it('final_answer carries the answer and explanation', async () => {
    const final = await call('final_answer', { answer: '42', explanation: 'counted' });
    assert.ok(final.ok && final.data.kind === 'final' && final.data.answer === '42');
  });
});

describe('observation renderer', () => {
  it('caps rows and cells and says so', () => {
    const rows = Array.from({ length: 30 }, (_, i) => [i, 'words and '.repeat(10), null, 0.1 + 0.2, 'x'.repeat(100), 28399188000.47]);
    const text = renderTable(['i', 'long', 'empty', 'sum', 'code', 'total'], rows, { limits: { maxRows: 5, maxCellChars: 10 } });
    const lines = text.split('\n');
    assert.equal(lines.length, 1 + 5 + 1);
    // (Text is cut at the cap; a value without spaces, a code to quote, at twice the cap; a total keeps its cents.)
    assert.equal(lines[1], `0 | words and… | NULL | 0.3 | ${'x'.repeat(19)}… | 28399188000.47`);
    assert.equal(lines[6], '(30 rows; showing the first 5 — truncated)');
    assert.match(renderTable(['a'], [[1]], { sandboxTruncated: true }), /sandbox row limit — truncated/);
    assert.equal(renderTable(['a'], [[1], [2]]).split('\n').pop(), '(2 rows)');
    assert.equal(capText('abcdef', 3), 'abc\n… [truncated: 3 more characters]');
  });

  it('keeps rows parseable when values contain pipes and newlines', () => {
    const text = renderTable(['name', 'note'], [['a | b', 'line1\nline2']]);
    const parsed = parseRenderedTable(text)!;
    assert.deepEqual(parsed.rows, [['a | b', 'line1\\nline2']]);
  });
});

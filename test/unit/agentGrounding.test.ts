/**
 * The grounding audit on hand-written conversations in the style of real model output: invented thresholds,
 * invented columns and invented dates are flagged; values the agent was shown (in the question, the system prompt,
 * a document it read, or an earlier observation) are never flagged, in any of the tolerated forms.
 */
import * as assert from 'node:assert/strict';
import { answerDependsOnUngrounded, auditGrounding, type GroundingSources, type StepGrounding } from '../../src/core/agent/grounding';
import { SYSTEM_PROMPT } from '../../src/core/agent/prompt';
import { renderError, renderTable } from '../../src/core/agent/render';
import type { AgentStep } from '../../src/core/agent/types';
import { openAgentSession } from '../../src/core/agent/session';
import { executeToolCall } from '../../src/core/agent/tools';
import { materialize, publicFixture } from '../support/publicFixtures';

const RULES = [
  '# Maple & Pine Retail — Business Rules',
  '## Customers',
  '- **Lifetime net spend** = revenue from the customer\'s non-cancelled orders minus refunds.',
  '- **VIP customers** have lifetime net spend above $2,000.',
  '## Late orders',
  'An order is **late** when `shipped_at` is more than 5 days after `ordered_at`.',
  '## Discounts',
  'Loyalty members get 15 % off list prices.',
].join('\n');

const SYSTEM = `${SYSTEM_PROMPT}

Schema summary (describe_table shows types, ranges and samples):
- orders (240 rows): order_id int, customer_id int, status text, amount real, ordered_at date, shipped_at date
- customers (20 rows): customer_id int, name text, region text, … +2 more
Documents: business_rules.md`;

function sources(question: string): GroundingSources {
  return { question, systemPrompt: SYSTEM, documents: [{ name: 'business_rules.md', text: RULES }] };
}

let counter = 0;
function step(tool: string, args: Record<string, unknown>, text: string, thought = ''): AgentStep {
  const ok = !text.startsWith('Error:');
  const index = counter++;
  return {
    index,
    thought,
    toolCall: { id: `call_${index}`, name: tool, arguments: JSON.stringify(args) },
    observation: ok
      ? { ok: true, tool, args, data: tool === 'final_answer' ? { kind: 'final', answer: String(args.answer), explanation: String(args.explanation ?? '') } : { kind: 'stdout', stdout: text }, text, elapsedMs: 1 }
      : { ok: false, tool, args, data: { kind: 'error', message: text.slice(7) }, text, errorKind: 'sql', elapsedMs: 1 },
    usage: { prompt: 100, completion: 20 },
    costUsd: 0,
    latencyMs: 1,
    config: { provider: 'openai', model: 'gpt-4o-mini', contextLength: { mode: 'full' }, simulated: false },
    promptTokensEstimate: 100,
    droppedSteps: 0,
  };
}

/** Renumbers a conversation from 0, as a trajectory's steps are. */
function conversation(...steps: AgentStep[]): AgentStep[] {
  return steps.map((s, i) => ({ ...s, index: i }));
}

const describeOrders = step(
  'describe_table',
  { table: 'orders' },
  `Table orders (240 rows, from orders.csv)\n${renderTable(
    ['column', 'type', 'nulls', 'distinct', 'range', 'samples'],
    [
      ['order_id', 'integer', '0%', 240, '1001 … 1240', '1001, 1002, 1003'],
      ['customer_id', 'integer', '0%', 20, '1 … 20', '7, 3, 12'],
      ['status', 'text', '0%', 3, '', 'shipped, cancelled, returned'],
      ['amount', 'real', '0%', 238, '12.4 … 1234.5678', '57.31, 210.05, 96.4'],
      ['ordered_at', 'date', '0%', 200, '2023-01-03 … 2024-12-28', '2023-01-03, 2024-06-11'],
      ['shipped_at', 'date', '4%', 190, '2023-01-05 … 2024-12-31', '2023-01-05, 2024-06-14'],
    ],
  )}`,
);

const describeCustomers = step(
  'describe_table',
  { table: 'customers' },
  `Table customers (20 rows, from customers.csv)\n${renderTable(
    ['column', 'type', 'nulls', 'distinct', 'range', 'samples'],
    [
      ['customer_id', 'integer', '0%', 20, '1 … 20', '1, 2, 3'],
      ['name', 'text', '0%', 20, '', 'Avery A., Blake B.'],
      ['region', 'text', '0%', 4, '', 'North, South, East'],
      ['segment', 'text', '0%', 2, '', 'consumer, business'],
      ['loyalty_tier', 'text', '10%', 3, '', 'Gold, Silver, Bronze'],
    ],
  )}`,
);

const VIP_QUESTION = 'How many customers are VIP customers according to the "Customers" section of business_rules.md?';
const VIP_SQL = 'SELECT COUNT(*) AS vip_customers FROM (SELECT customer_id, SUM(amount) AS spend FROM orders WHERE status <> \'cancelled\' GROUP BY customer_id HAVING SUM(amount) > 2000) AS t';
const vipRows = renderTable(['vip_customers'], [[6]]);

function flagged(grounding: StepGrounding[]): Array<{ step: number; kind: string; text: string }> {
  return grounding.flatMap((g, i) => g.ungrounded.map((u) => ({ step: i, kind: u.kind, text: u.text })));
}

/** The property every test asserts as well: nothing flagged occurs in what was shown before its step. */
function assertNothingShownIsFlagged(steps: AgentStep[], src: GroundingSources, grounding: StepGrounding[]): void {
  grounding.forEach((g, i) => {
    const shown = [src.question, src.systemPrompt, ...steps.slice(0, i).map((s) => s.observation.text)].join('\n').toLowerCase();
    for (const u of g.ungrounded) {
      // As a whole token: 0.8 is not shown by 0.85, nor amount by total_amount.
      const token = new RegExp(`(?<![a-z0-9_.])${u.text.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z0-9_]|\\.\\d)`);
      assert.ok(!token.test(shown), `step ${i} flags '${u.text}', which was shown`);
    }
  });
}

describe('agent: grounding audit on model-style conversations', () => {
  it('flags a VIP threshold the model invented without reading the rules document, and says where it was', () => {
    const steps = conversation(
      step('list_tables', {}, renderTable(['table', 'rows', 'columns', 'source'], [['orders', 240, 6, 'orders.csv'], ['customers', 20, 5, 'customers.csv']])),
      describeOrders,
      step('run_sql', { query: VIP_SQL }, vipRows, 'VIP customers are those with lifetime spend over $2000, so I will count customers whose non-cancelled orders sum above 2000.'),
      step('final_answer', { answer: '6', explanation: 'Counted customers with spend above 2000.' }, 'Final answer: 6'),
    );
    const src = sources(VIP_QUESTION);
    const grounding = auditGrounding(steps, src);
    assert.deepEqual(flagged(grounding), [{ step: 2, kind: 'literal', text: '2000' }], 'the thought saying 2000 does not ground it');
    assert.match(grounding[2].ungrounded[0].why, /business_rules\.md/);
    assert.deepEqual(answerDependsOnUngrounded(steps, grounding).map((u) => [u.step, u.text]), [[2, '2000']]);
    assertNothingShownIsFlagged(steps, src, grounding);
  });

  it('grounds the same threshold once read_document returned "above $2,000"', () => {
    const steps = conversation(
      step('read_document', { name: 'business_rules.md', section: 'Customers' }, RULES.split('## Late orders')[0].split('\n').slice(1).join('\n')),
      describeOrders,
      step('run_sql', { query: VIP_SQL }, vipRows, 'The rules say VIP means lifetime net spend above $2,000.'),
      step('final_answer', { answer: '6', explanation: 'Customers with non-cancelled spend above $2,000.' }, 'Final answer: 6'),
    );
    const grounding = auditGrounding(steps, sources(VIP_QUESTION));
    assert.deepEqual(flagged(grounding), []);
    assert.deepEqual(grounding[2].readsFrom, [0, 1], "2000 came from the document read at step 0, 'cancelled' from describe_table at step 1");
    assert.deepEqual(answerDependsOnUngrounded(steps, grounding), []);
  });

  it('grounds a threshold found by search_documents (the snippet is the observation)', () => {
    const steps = conversation(
      step('search_documents', { query: 'late orders definition' }, 'business_rules.md § Late orders (score 4.2)\n  An order is **late** when `shipped_at` is more than 5 days after `ordered_at`.'),
      step('run_sql', { query: "SELECT COUNT(*) FROM orders WHERE julianday(shipped_at) - julianday(ordered_at) > 5" }, renderTable(['COUNT(*)'], [[31]])),
    );
    const src = sources('How many orders were late?');
    assert.deepEqual(flagged(auditGrounding(steps, src)), []);
    // Without the search, 5 is invented (and the rules document is named as where it was).
    const blind = auditGrounding([steps[1]], src);
    assert.deepEqual(flagged(blind), [{ step: 0, kind: 'literal', text: '5' }]);
    assert.match(blind[0].ungrounded[0].why, /business_rules\.md/);
  });

  it('flags an invented column that no schema shown names, quoted or not, and an error echo does not ground it', () => {
    const src = sources('Which payment method is used most often?');
    const steps = conversation(
      describeOrders,
      step('run_sql', { query: 'SELECT payment_method, COUNT(*) FROM orders GROUP BY payment_method ORDER BY 2 DESC LIMIT 1' }, renderError('no such column: payment_method')),
      step('run_sql', { query: 'SELECT "payment_method", COUNT(*) AS n FROM orders GROUP BY 1 ORDER BY n DESC LIMIT 1' }, renderTable(['"payment_method"', 'n'], [['payment_method', 240]])),
    );
    const grounding = auditGrounding(steps, src);
    assert.deepEqual(flagged(grounding).slice(0, 2), [
      { step: 1, kind: 'column', text: 'payment_method' },
      { step: 2, kind: 'column', text: 'payment_method' },
    ]);
    assert.equal(flagged(grounding).length, 2, 'orders, COUNT, LIMIT and ORDER BY ordinals are not flagged');
  });

  it('grounds a column only a describe_table observation showed (the schema summary cut it)', () => {
    const query = "SELECT loyalty_tier, COUNT(*) FROM customers WHERE loyalty_tier = 'gold' GROUP BY loyalty_tier";
    const src = sources('How many customers are in the gold loyalty tier?');
    const before = auditGrounding(conversation(step('run_sql', { query }, renderTable(['loyalty_tier', 'COUNT(*)'], [['Gold', 4]]))), src);
    assert.deepEqual(flagged(before), [{ step: 0, kind: 'column', text: 'loyalty_tier' }]);
    const steps = conversation(describeCustomers, step('run_sql', { query }, renderTable(['loyalty_tier', 'COUNT(*)'], [['Gold', 4]])));
    const after = auditGrounding(steps, src);
    assert.deepEqual(flagged(after), [], "'gold' differs from the shown 'Gold' only in case");
    assertNothingShownIsFlagged(steps, src, after);
  });

  it('grounds dates from the question in another format and as period bounds; flags an invented date', () => {
    const src = sources('How many orders were placed since January 1, 2024, and how many in 2023?');
    const steps = conversation(
      step('run_sql', { query: "SELECT COUNT(*) FROM orders WHERE ordered_at >= '2024-01-01'" }, renderTable(['COUNT(*)'], [[118]])),
      step('run_sql', { query: "SELECT COUNT(*) FROM orders WHERE ordered_at >= '2023-01-01' AND ordered_at < '2024-01-01'" }, renderTable(['COUNT(*)'], [[122]])),
      step('run_sql', { query: "SELECT COUNT(*) FROM orders WHERE ordered_at BETWEEN '2023-01-01' AND '2023-12-31 23:59:59'" }, renderTable(['COUNT(*)'], [[122]])),
      step('run_sql', { query: "SELECT COUNT(*) FROM orders WHERE ordered_at >= '2023-07-15'" }, renderTable(['COUNT(*)'], [[180]])),
    );
    const grounding = auditGrounding(steps, src);
    assert.deepEqual(flagged(grounding), [{ step: 3, kind: 'literal', text: '2023-07-15' }]);
    assertNothingShownIsFlagged(steps, src, grounding);
  });

  it('grounds a number an earlier observation showed and records where it was read from', () => {
    const src = sources('How many orders are above the average order amount?');
    const steps = conversation(
      step('run_sql', { query: 'SELECT AVG(amount) FROM orders' }, renderTable(['AVG(amount)'], [[412.8871]])),
      step('run_sql', { query: 'SELECT COUNT(*) FROM orders WHERE amount > 412.8871' }, renderTable(['COUNT(*)'], [[97]])),
      step('run_sql', { query: 'SELECT COUNT(*) FROM orders WHERE amount > 412.89' }, renderTable(['COUNT(*)'], [[97]])),
      step('final_answer', { answer: '97', explanation: 'Orders above the mean of 412.89.' }, 'Final answer: 97'),
    );
    const grounding = auditGrounding(steps, src);
    assert.deepEqual(flagged(grounding), [], '412.89 is a rounding of the shown 412.8871');
    assert.deepEqual(grounding[1].readsFrom, [0]);
    assert.deepEqual(grounding[2].readsFrom, [0]);
  });

  it('grounds roundings of shown numbers and a percentage as a fraction; flags a number that is not one', () => {
    const src = sources('What is the revenue of orders above 1234.5678 after the loyalty discount?');
    const steps = conversation(
      step('read_document', { name: 'business_rules.md', section: 'Discounts' }, '## Discounts\nLoyalty members get 15 % off list prices.'),
      step('run_sql', { query: 'SELECT SUM(amount * (1 - 0.15)) FROM orders WHERE amount >= 1234.57' }, renderTable(['SUM(amount * (1 - 0.15))'], [[1049.38]])),
      step('run_sql', { query: 'SELECT SUM(amount * 0.85) FROM orders WHERE amount >= 1235' }, renderTable(['SUM(amount * 0.85)'], [[0]])),
      step('run_sql', { query: 'SELECT SUM(amount * 0.8) FROM orders WHERE amount >= 1234.6' }, renderTable(['SUM(amount * 0.8)'], [[0]])),
    );
    const grounding = auditGrounding(steps, src);
    assert.deepEqual(flagged(grounding), [{ step: 3, kind: 'literal', text: '0.8' }], '0.85 is 15 % off, 1235 and 1234.6 round 1234.5678; 20 % off was never shown');
    assertNothingShownIsFlagged(steps, src, grounding);
  });

  it('audits Python: literals and subscript keys, sql() strings as SQL; printed text is not audited', () => {
    const src = sources(VIP_QUESTION);
    const code = [
      'rows = sql("SELECT customer_id, SUM(amount) AS spend FROM orders WHERE status != \'cancelled\' GROUP BY customer_id")',
      'vip = [r for r in rows if r["spend"] > 2000 and r[\'payment_method\'] != "cash"]',
      'print(f"VIP customers: {len(vip)}")',
      'print("Total spend:", round(sum(r["spend"] for r in vip), 2))',
    ].join('\n');
    const steps = conversation(describeOrders, step('run_python', { code }, 'VIP customers: 6\nTotal spend: 18231.4'));
    const grounding = auditGrounding(steps, src);
    assert.deepEqual(
      flagged(grounding).map((f) => [f.kind, f.text]).sort(),
      [['column', 'payment_method'], ['literal', '2000'], ['literal', 'cash']],
      "'spend' is the query's own alias; 'cancelled' was shown by describe_table; printed strings are presentation",
    );
    assertNothingShownIsFlagged(steps, src, grounding);
  });

  it('reads a Python string as Python does (escaped quotes around names) and lets a page size and a quantile count be; flags a column no schema showed', () => {
    const src = sources('Which customer spent the most?');
    const code = [
      'def read_all(query):',
      '    page = 1000',
      '    rows = []',
      '    while True:',
      '        batch = sql(f"{query} LIMIT {page} OFFSET {len(rows)}")',
      '        if not batch:',
      '            return rows',
      '        rows += batch',
      'rows = read_all("SELECT c.\\"customer_id\\", SUM(c.\\"amount\\") AS spend FROM \\"orders\\" AS c GROUP BY 1")',
      'other = read_all("SELECT \\"loyalty_tier\\" FROM \\"orders\\"")',
      'spread = (sum((r[1] - 50) ** 2 for r in rows) / len(rows)) ** 0.5',
      "cut = statistics.quantiles([r[1] for r in rows], n=10, method='inclusive')[-1]",
      'top = [r for r in rows if r[1] > 13]',
      'print(max(rows, key=lambda r: r[1]))',
    ].join('\n');
    const steps = conversation(describeOrders, step('run_python', { code }, "('C07', 4120.5)"));
    const grounding = auditGrounding(steps, src);
    assert.deepEqual(flagged(grounding).map((f) => [f.kind, f.text]).sort(), [['column', 'loyalty_tier'], ['literal', '13'], ['literal', '50']], 'customer_id, amount and orders were shown (no trailing backslash); the page size, the exponents and the deciles and method of quantiles are how the code computes; 50 and 13 are invented');
    assertNothingShownIsFlagged(steps, src, grounding);
  });

  it("grounds a quoted value with an apostrophe, written as SQL doubles it ('O''Hare')", () => {
    const src = sources("How many flights left from the airport named 'Chicago O'Hare International'?");
    const query = "SELECT COUNT(*) FROM orders WHERE status = 'Chicago O''Hare International'";
    const steps = conversation(describeOrders, step('run_sql', { query }, renderTable(['COUNT(*)'], [[0]])));
    assert.deepEqual(flagged(auditGrounding(steps, src)), []);
    const invented = conversation(describeOrders, step('run_sql', { query: "SELECT COUNT(*) FROM orders WHERE status = 'Chicago O''Neil'" }, renderTable(['COUNT(*)'], [[0]])));
    assert.deepEqual(flagged(auditGrounding(invented, src)).map((f) => f.text), ["Chicago O'Neil"]);
  });

  it('never flags trivial literals: LIMIT, ORDER BY ordinals, ROUND digits, 100.0, 0/1, NULL, strftime formats, separators', () => {
    const src = sources('What share of orders were cancelled each month?');
    const query = [
      "SELECT strftime('%Y-%m', ordered_at) AS month,",
      "  ROUND(100.0 * SUM(CASE WHEN status = 'cancelled' THEN 1 ELSE 0 END) / COUNT(*), 2) AS cancel_pct,",
      "  GROUP_CONCAT(DISTINCT status, ', ') AS statuses",
      'FROM orders WHERE shipped_at IS NOT NULL OR status <> \'NULL\'',
      'GROUP BY 1 ORDER BY 2 DESC LIMIT 12 OFFSET 3',
    ].join('\n');
    const steps = conversation(describeOrders, step('run_sql', { query }, renderTable(['month', 'cancel_pct', 'statuses'], [['2024-03', 22.5, 'shipped, cancelled']])));
    assert.deepEqual(flagged(auditGrounding(steps, src)), []);
    // A double-quoted alias named again in ORDER BY is the query's own name, not an invented column.
    const aliased = conversation(describeOrders, step('run_sql', { query: 'SELECT status, ROUND(SUM(amount), 2) AS "total_amount" FROM orders GROUP BY status ORDER BY "total_amount" DESC' }, renderTable(['status', 'total_amount'], [['shipped', 9120.5]])));
    assert.deepEqual(flagged(auditGrounding(aliased, src)), []);
  });

  it('falls back to tokens for a query the SQLite grammar rejects, still catching invented names and values', () => {
    const src = sources('Which customers spent the most?');
    // A trailing comma before FROM: the parser rejects it; the sandbox would too, but the audit still reads it.
    const query = 'SELECT c.name, SUM(o.amount) AS total, FROM customers c JOIN orders o ON o.customer_id = c.customer_id WHERE o.channel = \'web\' AND o.amount > 750 GROUP BY c.name';
    const steps = conversation(describeCustomers, step('run_sql', { query }, renderError('near "FROM": syntax error')));
    assert.deepEqual(
      flagged(auditGrounding(steps, src)).map((f) => [f.kind, f.text]).sort(),
      [['column', 'channel'], ['literal', '750'], ['literal', 'web']],
    );
  });

  it('does not count an ungrounded literal the answer does not depend on', () => {
    const src = sources('How many orders were shipped?');
    const steps = conversation(
      step('run_sql', { query: 'SELECT COUNT(*) FROM orders WHERE amount > 999' }, renderTable(['COUNT(*)'], [[12]])),
      step('run_sql', { query: "SELECT COUNT(*) FROM orders WHERE status = 'shipped'" }, renderError('no such table: orderz')),
      describeOrders,
      step('run_sql', { query: "SELECT COUNT(*) FROM orders WHERE status = 'shipped'" }, renderTable(['COUNT(*)'], [[150]])),
      step('final_answer', { answer: '150', explanation: 'Counted shipped orders.' }, 'Final answer: 150'),
    );
    const grounding = auditGrounding(steps, src);
    assert.deepEqual(flagged(grounding), [{ step: 0, kind: 'literal', text: '999' }], "'shipped' is in the question");
    assert.deepEqual(answerDependsOnUngrounded(steps, grounding), [], 'the answering query reads only shown values');
  });

  it("names every column of a wide table within the cap (the Vega budget's 59 year columns and the 13 after them), so a query of the last one is grounded", async () => {
    const budget = await materialize(publicFixture('vega-us-budget'));
    const session = await openAgentSession(budget.root);
    try {
      const observation = await executeToolCall(session.toolContext, { name: 'describe_table', arguments: JSON.stringify({ table: 'budget' }) });
      assert.ok(observation.ok && !/truncated/.test(observation.text), observation.text);
      const table = session.env.profile.tables.find((t) => t.name === 'budget')!;
      assert.equal(table.columns.length, 72);
      for (const c of table.columns) assert.match(observation.text, new RegExp(`\\b${c.name}\\b`), c.name);
      assert.match(observation.text, /^t_1962 … t_2020 \| text \| measure · sum \|/m);
      const described = step('describe_table', { table: 'budget' }, observation.text);
      const query = 'SELECT source_category_name, SUM(CAST(REPLACE(t_1990, \',\', \'\') AS INTEGER)) FROM budget WHERE source_category_code = 937 GROUP BY 1';
      const steps = conversation(described, step('run_sql', { query }, renderTable(['source_category_name', 'total'], [['Other', 1]])));
      const audit = auditGrounding(steps, sources('What was the total in 1990 by source category?'));
      assert.deepEqual(audit[1].ungrounded.filter((u) => u.kind !== 'literal'), []);
    } finally {
      await session.dispose();
      budget.cleanup();
    }
  });

  it("reads a printf format and a GLOB pattern of character classes as shapes, and still flags a value inside a pattern", () => {
    const query = "SELECT COUNT(*) FROM orders WHERE TRIM(CAST(amount AS TEXT)) GLOB '*[^0-9.-]*' AND strftime('%Y', printf('%04d-01-01', 1987)) IS NOT NULL";
    const clean = auditGrounding(conversation(describeOrders, step('run_sql', { query }, renderTable(['COUNT(*)'], [[3]]))), sources('How many amounts in orders are written with something other than digits?'));
    assert.deepEqual(clean[1].ungrounded.map((u) => u.text), ['1987'], 'the year is a value; the format and the shape are not');
    const named = "SELECT COUNT(*) FROM orders WHERE status GLOB '*[Cc]ancel*'";
    const flaggedSteps = auditGrounding(conversation(describeOrders, step('run_sql', { query: named }, renderTable(['COUNT(*)'], [[3]]))), sources('How many orders are there?'));
    assert.deepEqual(flaggedSteps[1].ungrounded.map((u) => `${u.kind}:${u.text}`), ['literal:*[Cc]ancel*']);
  });
});


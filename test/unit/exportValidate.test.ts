import * as assert from 'node:assert/strict';
import { tools } from '../../src/core/agent/tools';
import { OpenAiExample, toHfExample, toShareGptExample } from '../../src/core/export/sft';
import { OPENAI_RULES, validateHfExample, validateOpenAiExample, validateShareGptExample } from '../../src/core/export/validate';

/** A small valid example: question → run_sql → result → final_answer call. */
function validExample(): OpenAiExample {
  return {
    messages: [
      { role: 'system', content: 'You are a data agent.' },
      { role: 'user', content: 'Question: How many orders?' },
      { role: 'assistant', content: 'Count them.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_sql', arguments: '{"query":"SELECT COUNT(*) FROM orders"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'COUNT(*)\n240\n(1 row)' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'final_answer', arguments: '{"answer":"240","explanation":"Counted."}' } }] },
    ],
    tools,
    parallel_tool_calls: false,
  };
}

type Mutable = { messages: Array<Record<string, any>>; tools: any[]; [key: string]: any };
const clone = (): Mutable => JSON.parse(JSON.stringify(validExample())) as Mutable;

/** One planted defect per OpenAI rule. */
const PLANTED: Record<(typeof OPENAI_RULES)[number], (e: Mutable) => void> = {
  'example-shape': (e) => (e.extra = 1),
  'tools-shape': (e) => (e.tools = [{ type: 'function', function: { description: 'no name' } }]),
  role: (e) => (e.messages[1].role = 'human'),
  'message-keys': (e) => (e.messages[3].name = 'run_sql'),
  'system-position': (e) => e.messages.splice(2, 0, { role: 'system', content: 'again' }),
  content: (e) => (e.messages[1].content = ''),
  'tool-call-shape': (e) => delete e.messages[2].tool_calls[0].id,
  'tool-name-pattern': (e) => {
    e.tools[0].function.name = 'run sql!';
    e.messages[2].tool_calls[0].function.name = 'run sql!';
  },
  'tool-declared': (e) => (e.messages[2].tool_calls[0].function.name = 'drop_table'),
  'arguments-json': (e) => (e.messages[2].tool_calls[0].function.arguments = '{"query": "SELECT 1"'),
  'parallel-tool-calls': (e) => e.messages[4].tool_calls.push({ id: 'call_3', type: 'function', function: { name: 'list_tables', arguments: '{}' } }),
  'tool-call-answered': (e) => e.messages.splice(3, 1),
  'tool-response-orphan': (e) => (e.messages[3].tool_call_id = 'call_9'),
  weight: (e) => (e.messages[1].weight = 0),
  trainable: (e) => {
    e.messages[2].weight = 0;
    e.messages[4].weight = 0;
  },
  'ends-with-assistant': (e) => e.messages.push({ role: 'user', content: 'thanks' }),
  'no-secret': (e) => (e.messages[2].content = 'using key sk-proj-ABCDEFGHIJKLMNOPQRSTUV123456'),
};

describe('export validators', () => {
  it('accept a valid example, including a final assistant call left unanswered', () => {
    assert.deepEqual(validateOpenAiExample(validExample()), []);
    assert.deepEqual(validateHfExample(toHfExample(validExample())), []);
    assert.deepEqual(validateShareGptExample(toShareGptExample(validExample())), []);
  });

  for (const rule of OPENAI_RULES) {
    it(`openai rule ${rule} catches its planted defect`, () => {
      const example = clone();
      PLANTED[rule](example);
      const issues = validateOpenAiExample(example);
      assert.ok(issues.some((i) => i.rule === rule), `${rule} not reported; got ${JSON.stringify(issues)}`);
    });
  }

  it('openai: weight 2 and weight on a tool turn are refused; weight 0/1 on assistant turns is fine', () => {
    const ok = clone();
    ok.messages[2].weight = 0;
    ok.messages[4].weight = 1;
    assert.deepEqual(validateOpenAiExample(ok), []);
    const two = clone();
    two.messages[2].weight = 2;
    assert.ok(validateOpenAiExample(two).some((i) => i.rule === 'weight' && i.messageIndex === 2));
  });

  it('openai: a configured secret value is found anywhere in the example', () => {
    const example = clone();
    example.messages[3].content = 'token abcd1234secretvalue';
    assert.deepEqual(validateOpenAiExample(example).map((i) => i.rule), []);
    assert.deepEqual(validateOpenAiExample(example, { secrets: ['abcd1234secretvalue'] }).map((i) => i.rule), ['no-secret']);
  });

  it('openai: survives arbitrary JSON lines with a diagnostic, never a throw', () => {
    for (const junk of [null, 3, 'text', [], {}, { messages: 'x' }, { messages: [null, 1, 'a'] }, { messages: [{ role: 'assistant', tool_calls: 'x' }] }]) {
      const issues = validateOpenAiExample(junk);
      assert.ok(issues.length > 0, JSON.stringify(junk));
    }
  });

  it('hf: string arguments, null content and undeclared tools are caught', () => {
    const hf = toHfExample(validExample()) as any;
    hf.messages[2].tool_calls[0].function.arguments = '{"query":"SELECT 1"}';
    hf.messages[4].content = null;
    hf.messages[4].tool_calls[0].function.name = 'nope';
    const rules = validateHfExample(hf).map((i) => i.rule);
    assert.ok(rules.includes('arguments-object'), rules.join());
    assert.ok(rules.includes('content'), rules.join());
    assert.ok(rules.includes('tool-declared'), rules.join());
  });

  it('sharegpt: alternation, function_call JSON, the tools string and the last turn are checked', () => {
    const base = () => JSON.parse(JSON.stringify(toShareGptExample(validExample())));
    const swapped = base();
    swapped.conversations[1].from = 'observation';
    assert.ok(validateShareGptExample(swapped).some((i) => i.rule === 'role'));
    const badCall = base();
    badCall.conversations[1].value = 'run_sql(SELECT 1)';
    assert.ok(validateShareGptExample(badCall).some((i) => i.rule === 'arguments-json'));
    const badTools = base();
    badTools.tools = tools;
    assert.ok(validateShareGptExample(badTools).some((i) => i.rule === 'tools-shape'));
    const endsWithObservation = base();
    endsWithObservation.conversations.push({ from: 'observation', value: 'x' });
    assert.ok(validateShareGptExample(endsWithObservation).some((i) => i.rule === 'ends-with-assistant'));
  });
});

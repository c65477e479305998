import { strict as assert } from 'node:assert';
import { parseToolArguments, redactSecrets, REDACTED, LlmError } from '../../src/core/llm/errors';
import { jsonToolInstructions, parseJsonToolReply, tolerantJsonParse, toJsonToolConversation } from '../../src/core/llm/jsonToolProtocol';
import type { ToolDefinition } from '../../src/core/llm/types';

const tool: ToolDefinition = {
  type: 'function',
  function: { name: 'run_sql', description: 'Run SQL.', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
};

describe('llm: JSON-in-text tool protocol (defensive parsing)', () => {
  it('reads a fenced ```json block and keeps the prose before it', () => {
    const reply = parseJsonToolReply('Counting rows first.\n```json\n{"tool": "run_sql", "arguments": {"query": "SELECT 1"}}\n```', 'c');
    assert.equal(reply.content, 'Counting rows first.');
    assert.deepEqual(reply.toolCalls, [{ id: 'c_1', name: 'run_sql', arguments: '{"query":"SELECT 1"}' }]);
  });

  it('reads a bare object amid prose, with trailing prose, braces inside strings', () => {
    const reply = parseJsonToolReply('Sure: {"name": "run_sql", "arguments": {"query": "SELECT \'{x}\' AS t"}} and that is all.');
    assert.equal(reply.toolCalls.length, 1);
    assert.deepEqual(JSON.parse(reply.toolCalls[0].arguments), { query: "SELECT '{x}' AS t" });
    assert.equal(reply.content, 'Sure: and that is all.');
  });

  it('tolerates trailing commas and single quotes, but only where repair is unambiguous', () => {
    assert.deepEqual(tolerantJsonParse('{"a": [1, 2,], "b": {"c": 3,},}'), { a: [1, 2], b: { c: 3 } });
    assert.deepEqual(tolerantJsonParse("{'tool': 'run_sql', 'arguments': {'query': 'SELECT 1'}}"), { tool: 'run_sql', arguments: { query: 'SELECT 1' } });
    // A comma inside a string is data, not a trailing comma.
    assert.deepEqual(tolerantJsonParse('{"q": "a,}"}'), { q: 'a,}' });
    // Mixed quotes are not guessed at.
    assert.equal(tolerantJsonParse(`{'q': "it's"}`), undefined);
  });

  it('accepts the other shapes models write: function wrapper, tool_calls list, string arguments', () => {
    const wrapped = parseJsonToolReply('{"function": {"name": "run_sql", "arguments": "{\\"query\\": \\"SELECT 2\\"}"}}');
    assert.deepEqual(wrapped.toolCalls.map((c) => [c.name, c.arguments]), [['run_sql', '{"query": "SELECT 2"}']]);
    const list = parseJsonToolReply('```json\n{"tool_calls": [{"tool": "a", "args": {}}, {"tool": "b", "parameters": {"x": 1}}]}\n```');
    assert.deepEqual(list.toolCalls.map((c) => [c.name, c.arguments]), [['a', '{}'], ['b', '{"x":1}']]);
  });

  it('prefers a ```json fence over an untagged one, and plain text stays text', () => {
    const reply = parseJsonToolReply('```\n{"note": 1}\n```\n```json\n{"tool": "run_sql", "arguments": {}}\n```');
    assert.equal(reply.toolCalls[0].name, 'run_sql');
    const text = parseJsonToolReply('The answer is 42 (see {table} notes).');
    assert.deepEqual(text, { content: 'The answer is 42 (see {table} notes).', toolCalls: [] });
    assert.deepEqual(parseJsonToolReply('   '), { content: null, toolCalls: [] });
  });

  it('keeps a cut-off tool call as a malformed call instead of dropping it', () => {
    const reply = parseJsonToolReply('```json\n{"tool": "run_sql", "arguments": {"query": "SELECT * FROM orders WHERE\n```');
    assert.equal(reply.toolCalls.length, 1);
    assert.equal(reply.toolCalls[0].name, 'run_sql');
    const parsed = parseToolArguments(reply.toolCalls[0]);
    assert.equal(parsed.ok, false);
  });

  it('rewrites history for the text protocol: instructions in the system prompt, calls as JSON, results as user turns', () => {
    const converted = toJsonToolConversation(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Count orders.' },
        { role: 'assistant', content: 'Checking.', toolCalls: [{ id: 'k1', name: 'run_sql', arguments: '{"query":"SELECT 1"}' }] },
        { role: 'tool', toolCallId: 'k1', content: '1' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'k2', name: 'run_sql', arguments: '{broken' }] },
      ],
      [tool],
    );
    assert.equal(converted.length, 5);
    assert.ok(converted.every((m) => m.role !== 'tool'));
    assert.match(converted[0].content as string, /^Be brief\.\n\nYou can call tools/);
    assert.match(converted[2].content as string, /Checking\.\n```json\n\{"tool": "run_sql", "arguments": \{"query":"SELECT 1"\}\}/);
    assert.deepEqual(converted[3], { role: 'user', content: 'Result of tool run_sql (k1):\n1' });
    // Malformed earlier arguments are embedded as a JSON string so the history itself stays parseable.
    const again = parseJsonToolReply(converted[4].content as string);
    assert.equal(again.toolCalls[0].arguments, '{broken');
    assert.match(jsonToolInstructions([tool]), /run_sql: Run SQL\./);
    assert.equal(toJsonToolConversation([{ role: 'user', content: 'hi' }], [tool])[0].role, 'system');
  });
});

describe('llm: tool arguments and secret redaction', () => {
  it('parses valid arguments, treats empty as {}, and types every malformed case', () => {
    assert.deepEqual(parseToolArguments({ name: 't', arguments: '{"n": 5}' }), { ok: true, value: { n: 5 } });
    assert.deepEqual(parseToolArguments({ name: 't', arguments: '  ' }), { ok: true, value: {} });
    for (const bad of ['{"n": 5', '[1,2]', '"text"', 'null', '42', "{'n': 5}"]) {
      const result = parseToolArguments({ name: 'sample_rows', arguments: bad });
      assert.equal(result.ok, false, bad);
      if (!result.ok) {
        assert.ok(result.error instanceof LlmError);
        assert.equal(result.error.kind, 'malformed_tool_arguments');
        assert.equal(result.error.retryable, false);
        assert.match(result.error.message, /sample_rows/);
      }
    }
  });

  it('redacts the secret, its masked head/tail echoes, bearer tokens and key-shaped strings', () => {
    const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const text = `key=${key}; masked sk-proj-Ab****************2345; header Authorization: Bearer abc.def-ghi_jkl; other sk-or-v1-deadbeefcafebabe0011`;
    const redacted = redactSecrets(text, [key]);
    assert.ok(!redacted.includes(key));
    assert.ok(!redacted.includes('Yz012345'));
    assert.ok(!redacted.includes('abc.def-ghi_jkl'));
    assert.ok(!redacted.includes('deadbeefcafebabe'));
    assert.ok(redacted.includes(REDACTED));
    assert.equal(redactSecrets('nothing secret here', [key, undefined, '']), 'nothing secret here');
    // Very short "secrets" are not redacted literally (would blank ordinary words).
    assert.equal(redactSecrets('the cat sat', ['cat']), 'the cat sat');
  });

  it('LlmError.redacted cleans message, detail and stack', () => {
    const error = new LlmError('auth', 'bad key SECRET-VALUE-123', false, { status: 401, detail: 'echo SECRET-VALUE-123' });
    const clean = error.redacted(['SECRET-VALUE-123']);
    assert.equal(clean.message, `bad key ${REDACTED}`);
    assert.equal(clean.detail, `echo ${REDACTED}`);
    assert.ok(!(clean.stack ?? '').includes('SECRET-VALUE-123'));
    assert.equal(clean.status, 401);
    assert.equal(clean.kind, 'auth');
  });
});

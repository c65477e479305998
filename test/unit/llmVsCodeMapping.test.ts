import { strict as assert } from 'node:assert';
import { fromLmResponseParts, lmErrorToLlmError, toLmMessages, toLmTools } from '../../src/core/llm/vscodeLmMapping';

describe('llm: VS Code language-model mapping (pure)', () => {
  it('maps system to user instructions, tool calls to call parts, and merges consecutive tool results', () => {
    const mapped = toLmMessages([
      { role: 'system', content: 'Be exact.' },
      { role: 'user', content: 'Top region?' },
      {
        role: 'assistant',
        content: 'Two queries.',
        toolCalls: [
          { id: 'c1', name: 'run_sql', arguments: '{"query":"SELECT 1"}' },
          { id: 'c2', name: 'run_python', arguments: '{oops' },
        ],
      },
      { role: 'tool', toolCallId: 'c1', content: '1' },
      { role: 'tool', toolCallId: 'c2', content: 'SyntaxError' },
      { role: 'assistant', content: null },
    ]);
    assert.deepEqual(mapped, [
      { role: 'user', parts: [{ kind: 'text', value: 'Instructions:\nBe exact.' }] },
      { role: 'user', parts: [{ kind: 'text', value: 'Top region?' }] },
      {
        role: 'assistant',
        parts: [
          { kind: 'text', value: 'Two queries.' },
          { kind: 'toolCall', callId: 'c1', name: 'run_sql', input: { query: 'SELECT 1' } },
          { kind: 'toolCall', callId: 'c2', name: 'run_python', input: { arguments_text: '{oops' } },
        ],
      },
      {
        role: 'user',
        parts: [
          { kind: 'toolResult', callId: 'c1', text: '1' },
          { kind: 'toolResult', callId: 'c2', text: 'SyntaxError' },
        ],
      },
      { role: 'assistant', parts: [{ kind: 'text', value: '' }] },
    ]);
  });

  it('maps tools and response parts back to our completion message', () => {
    assert.deepEqual(toLmTools([{ type: 'function', function: { name: 't', description: 'd', parameters: { type: 'object' } } }]), [
      { name: 't', description: 'd', inputSchema: { type: 'object' } },
    ]);
    assert.deepEqual(
      fromLmResponseParts([
        { kind: 'text', value: 'Let me ' },
        { kind: 'text', value: 'look.' },
        { kind: 'toolCall', callId: 'x1', name: 'list_tables', input: {} },
        { kind: 'toolCall', callId: '', name: 'run_sql', input: { query: 'SELECT 2' } },
      ]),
      {
        content: 'Let me look.',
        toolCalls: [
          { id: 'x1', name: 'list_tables', arguments: '{}' },
          { id: 'call_2', name: 'run_sql', arguments: '{"query":"SELECT 2"}' },
        ],
      },
    );
    assert.deepEqual(fromLmResponseParts([]), { content: null, toolCalls: [] });
  });

  it('turns LanguageModelError codes into plain-words LlmErrors', () => {
    const consent = lmErrorToLlmError('NoPermissions', 'denied', 'GPT-4.1');
    assert.deepEqual([consent.kind, consent.retryable], ['consent', false]);
    assert.match(consent.message, /consent/);
    assert.equal(lmErrorToLlmError('Blocked', 'quota', 'm').kind, 'quota');
    assert.equal(lmErrorToLlmError('NotFound', 'gone', 'm').kind, 'bad_request');
    assert.equal(lmErrorToLlmError('Unknown', 'Rate limit exceeded (429)', 'm').kind, 'rate_limit');
    const other = lmErrorToLlmError(undefined, 'boom', 'm');
    assert.deepEqual([other.kind, other.retryable], ['server', true]);
  });
});

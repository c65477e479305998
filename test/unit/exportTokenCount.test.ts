import * as assert from 'node:assert/strict';
import { ESTIMATE_TOKENIZER, tokenCounterFor, tokenizerLoadError } from '../../src/core/export/tokenCount';

describe('export token counts with the Qwen tokenizers', function () {
  this.timeout(60_000);

  it('counts a ChatML turn as Qwen2.5 and Qwen3 tokenize it: special tokens whole, words as BPE pieces', () => {
    for (const template of ['qwen2.5', 'qwen3'] as const) {
      const counter = tokenCounterFor(template);
      assert.equal(tokenizerLoadError(), undefined);
      assert.ok(counter.exact && counter.tokenizer !== ESTIMATE_TOKENIZER, counter.tokenizer);
      // <|im_start|> system \n You ␣are ␣a ␣helpful ␣assistant . <|im_end|> \n
      assert.equal(counter.count('<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n'), 11);
      assert.equal(counter.count(''), 0);
    }
  });

  it('Qwen3 has <tool_response> and <think> as single tokens; Qwen2.5 splits them as text', () => {
    const qwen25 = tokenCounterFor('qwen2.5');
    const qwen3 = tokenCounterFor('qwen3');
    for (const special of ['<tool_response>', '</tool_response>', '<think>', '</think>']) {
      assert.equal(qwen3.count(special), 1, special);
      assert.ok(qwen25.count(special) > 1, special);
    }
    // Tokens both have: <tool_call> is one token in either.
    assert.equal(qwen25.count('<tool_call>'), 1);
    assert.equal(qwen3.count('<tool_call>'), 1);
    assert.match(qwen25.tokenizer, /^Qwen2\.5 tokenizer/);
    assert.match(qwen3.tokenizer, /^Qwen3 tokenizer/);
  });
});

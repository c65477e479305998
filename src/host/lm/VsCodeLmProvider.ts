import * as vscode from 'vscode';
import { LlmError } from '../../core/llm/errors';
import { costUsd, resolveModelSpec, type PriceOverride } from '../../core/llm/pricing';
import { withRetry } from '../../core/llm/retry';
import type { Completion, CompletionRequest, LlmProvider, ModelSpec, ToolCallRequest } from '../../core/llm/types';
import { fromLmResponseParts, lmErrorToLlmError, toLmMessages, toLmTools, type LmMessageDescriptor } from '../../core/llm/vscodeLmMapping';

export interface VsCodeLmProviderOptions {
  /** Narrows the user's chat models (e.g. { vendor: 'copilot' }); default: all of them. */
  selector?: vscode.LanguageModelChatSelector;
  /** Shown in VS Code's consent prompt. */
  justification?: string;
  /** Prices are looked up by model family ("gpt-4.1" → the API list price) unless overridden here. */
  priceOverrides?: Readonly<Record<string, PriceOverride>>;
  timeoutMs?: number;
}

/** The user's VS Code chat models as a provider, with the retries with backoff every provider gets. */
export function createVsCodeLmProvider(options: VsCodeLmProviderOptions = {}, log?: (line: string) => void): LlmProvider {
  return withRetry(new VsCodeLmProvider(options), { log: log && ((line) => log(`[vscode-lm] ${line}`)) });
}

/**
 * LlmProvider over the user's VS Code chat models (`vscode.lm`). Message/tool mapping and error wording live in
 * core (vscodeLmMapping) so they are unit-tested; this class only turns descriptors into vscode objects.
 * Cost is the equivalent API list price of the model family (VS Code does not bill per token), so budgets and the
 * cost model still see a meaningful number; unknown families cost 0 with a warning.
 */
export class VsCodeLmProvider implements LlmProvider {
  readonly id = 'vscode-lm';

  constructor(private readonly options: VsCodeLmProviderOptions = {}) {}

  async listModels(): Promise<ModelSpec[]> {
    const models = await vscode.lm.selectChatModels(this.options.selector ?? {});
    return models.map((model) => this.specFor(model));
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const model = await this.pick(request.model);
    const spec = this.specFor(model);
    const warnings: string[] = [];
    if (spec.warning) warnings.push(spec.warning);
    if (request.reasoningEffort) warnings.push('VS Code language models take no reasoning effort; it was not sent.');

    const messages = toLmMessages(request.messages).map(toVsCodeMessage);
    const tokenSource = new vscode.CancellationTokenSource();
    let timedOut = false;
    const onAbort = (): void => tokenSource.cancel();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = this.options.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          tokenSource.cancel();
        }, this.options.timeoutMs)
      : undefined;
    const started = performance.now();
    const parts: Array<{ kind: 'text'; value: string } | { kind: 'toolCall'; callId: string; name: string; input: unknown }> = [];
    try {
      if (request.signal?.aborted) throw new LlmError('cancelled', 'The model request was cancelled.', false);
      const response = await model.sendRequest(
        messages,
        {
          justification: this.options.justification ?? 'TOFFEE asks the model to propose the next data-analysis step.',
          tools: toLmTools(request.tools).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
        },
        tokenSource.token,
      );
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) parts.push({ kind: 'text', value: part.value });
        else if (part instanceof vscode.LanguageModelToolCallPart) parts.push({ kind: 'toolCall', callId: part.callId, name: part.name, input: part.input });
      }
      if (tokenSource.token.isCancellationRequested) throw new Error('cancelled');
    } catch (error) {
      if (request.signal?.aborted) throw new LlmError('cancelled', 'The model request was cancelled.', false);
      if (timedOut) throw new LlmError('timeout', `The language model "${model.name}" did not answer within ${this.options.timeoutMs} ms.`, true);
      if (error instanceof LlmError) throw error;
      if (error instanceof vscode.LanguageModelError) throw lmErrorToLlmError(error.code, error.message, model.name);
      throw lmErrorToLlmError(undefined, error instanceof Error ? error.message : String(error), model.name);
    } finally {
      if (timer) clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      tokenSource.dispose();
    }
    const latencyMs = Math.round(performance.now() - started);
    const message = fromLmResponseParts(parts);
    const usage = await this.countUsage(model, messages, message.content, message.toolCalls);
    const completion: Completion = {
      message,
      usage,
      costUsd: costUsd(usage, spec),
      latencyMs,
      finishReason: message.toolCalls.length > 0 ? 'tool_calls' : 'stop',
    };
    if ((request.tools?.length ?? 0) > 0) completion.toolProtocol = 'native';
    if (warnings.length > 0) completion.warnings = warnings;
    return completion;
  }

  /** Token counts with the model's own tokenizer (`countTokens`); VS Code reports no usage itself. */
  private async countUsage(
    model: vscode.LanguageModelChat,
    messages: vscode.LanguageModelChatMessage[],
    content: string | null,
    toolCalls: ToolCallRequest[],
  ): Promise<Completion['usage']> {
    const promptCounts = await Promise.all(messages.map((message) => model.countTokens(message)));
    const completionText = [content ?? '', ...toolCalls.map((call) => `${call.name}${call.arguments}`)].join('\n');
    const completion = completionText ? await model.countTokens(completionText) : 0;
    return { prompt: promptCounts.reduce((sum, n) => sum + n, 0), completion };
  }

  /** Match the requested model by id, then family, then display name (case-insensitive). */
  private async pick(requested: string): Promise<vscode.LanguageModelChat> {
    const models = await vscode.lm.selectChatModels(this.options.selector ?? {});
    const wanted = requested.toLowerCase();
    const found =
      models.find((m) => m.id === requested) ??
      models.find((m) => m.family.toLowerCase() === wanted) ??
      models.find((m) => m.name.toLowerCase() === wanted) ??
      (requested === '' ? models[0] : undefined);
    if (!found) {
      const available = models.map((m) => `${m.name} (${m.family})`).join(', ');
      throw new LlmError(
        'bad_request',
        models.length === 0
          ? 'No VS Code language models are available. Install and sign in to a chat model provider (e.g. GitHub Copilot).'
          : `No VS Code language model matches "${requested}". Available: ${available}.`,
        false,
      );
    }
    return found;
  }

  private specFor(model: vscode.LanguageModelChat): ModelSpec & { warning?: string } {
    const priced = resolveModelSpec(model.family, this.id, this.options.priceOverrides);
    return {
      ...priced,
      id: model.id,
      contextWindow: model.maxInputTokens || priced.contextWindow,
      supportsTools: true,
      supportsReasoningEffort: false,
    };
  }
}

function toVsCodeMessage(descriptor: LmMessageDescriptor): vscode.LanguageModelChatMessage {
  if (descriptor.role === 'assistant') {
    const parts = descriptor.parts.flatMap((part): Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> => {
      if (part.kind === 'text') return [new vscode.LanguageModelTextPart(part.value)];
      if (part.kind === 'toolCall') return [new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input)];
      return [];
    });
    return vscode.LanguageModelChatMessage.Assistant(parts);
  }
  const parts = descriptor.parts.flatMap((part): Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart> => {
    if (part.kind === 'text') return [new vscode.LanguageModelTextPart(part.value)];
    if (part.kind === 'toolResult') return [new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)])];
    return [];
  });
  return vscode.LanguageModelChatMessage.User(parts);
}

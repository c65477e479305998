import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions/completions';
import { capabilitiesFor, looksLikeReasoningUnsupported, looksLikeToolsUnsupported, type EndpointCapabilities } from './capabilities';
import { sharedEndpointLimiter, type EndpointLimiter } from './endpointLimiter';
import { LlmError, redactSecrets } from './errors';
import { parseJsonToolReply, toJsonToolConversation } from './jsonToolProtocol';
import { costUsd, resolveModelSpec, type PriceOverride, type ResolvedModelSpec } from './pricing';
import { retrying, withRetry, type RetryOptions } from './retry';
import { isRetryableStatus, parseRetryAfterMs } from './retryPolicy';
import { estimateMessagesTokens, estimateTokens } from './tokens';
import type { ChatMessage, Completion, CompletionRequest, LlmProvider, ModelSpec, ToolCallRequest, ToolDefinition, Usage } from './types';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAiProviderOptions {
  /** Provider id shown in ModelSpec.provider and logs (e.g. "openai", "openrouter"). Default "openai". */
  id?: string;
  baseUrl?: string;
  /** The key itself (extension: from SecretStorage). Takes precedence over apiKeyEnv. */
  apiKey?: string;
  /** Environment variable holding the key (CLI). Default OPENAI_API_KEY. */
  apiKeyEnv?: string;
  /** Environment to read apiKeyEnv from; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra headers on every request, e.g. OpenRouter's HTTP-Referer and X-Title. */
  headers?: Readonly<Record<string, string>>;
  /** Per-attempt limit covering the whole response (streamed bodies included). Default 120 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt for retryable failures. Default 4. */
  maxRetries?: number;
  /** Full-jitter backoff base and cap. Defaults 500 ms and 30 000 ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Longest Retry-After we wait; a longer request is waited for this long. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** Per-endpoint limits, shared by every provider on the same base URL (the stricter wins). */
  concurrency?: number;
  requestsPerMinute?: number;
  burst?: number;
  /** Use server-sent events and assemble the reply from deltas. Default false. */
  stream?: boolean;
  /** Models offered by listModels(); without it listModels() asks the endpoint's /models. */
  models?: readonly string[];
  priceOverrides?: Readonly<Record<string, PriceOverride>>;
  /** 'auto' (default): native tools, falling back to JSON-in-text when the endpoint rejects them. */
  toolProtocol?: 'auto' | 'native' | 'json-text';
  /** Receives one redacted line per notable event (retries, fallbacks). */
  log?: (line: string) => void;
  /** RNG for backoff jitter (tests pass a fixed one). */
  random?: () => number;
  /** How a retry's wait is spent (tests record the waits instead of sleeping them). */
  sleep?: RetryOptions['sleep'];
}

export interface OpenAiProvider extends LlmProvider {
  readonly baseUrl: string;
  modelSpec(model: string): ResolvedModelSpec;
  /** Ask the endpoint what it accepts (two tiny requests at most); cached per endpoint+model. */
  probeCapabilities(model: string, signal?: AbortSignal): Promise<EndpointCapabilities>;
}

interface AttemptResult {
  content: string | null;
  toolCalls: ToolCallRequest[];
  usage: Usage | undefined;
  finishReason: string | undefined;
  latencyMs: number;
}

interface AttemptPlan {
  protocol: 'native' | 'json-text';
  sendReasoning: boolean;
}

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i;

/** An endpoint on this machine (Ollama, vLLM, a test server): it may need no API key. */
export function isLocalEndpoint(baseUrl: string): boolean {
  try {
    return LOCAL_HOST.test(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

/**
 * Ids for tool calls the model wrote as text (they have none of their own): by the reply's turn in the
 * conversation, so the same conversation gets the same ids whatever the process did before.
 */
function textCallIdPrefix(messages: readonly ChatMessage[]): string {
  return `call_t${messages.filter((m) => m.role === 'assistant').length + 1}`;
}

export function createOpenAiProvider(options: OpenAiProviderOptions = {}): OpenAiProvider {
  const id = options.id ?? 'openai';
  const baseUrl = (options.baseUrl ?? DEFAULT_OPENAI_BASE_URL).replace(/\/+$/, '');
  const env = options.env ?? process.env;
  const apiKeyEnv = options.apiKeyEnv ?? 'OPENAI_API_KEY';
  const apiKey = options.apiKey ?? env[apiKeyEnv];
  const secrets = [apiKey];
  const timeoutMs = options.timeoutMs ?? 120_000;
  const toolProtocol = options.toolProtocol ?? 'auto';
  const log = (line: string): void => options.log?.(redactSecrets(`[${id}] ${line}`, secrets));

  let host = '';
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    // reported on first use below
  }
  const keyOptional = LOCAL_HOST.test(host);

  const limiter: EndpointLimiter = sharedEndpointLimiter(baseUrl, {
    concurrency: options.concurrency ?? 4,
    requestsPerMinute: options.requestsPerMinute ?? 0,
    burst: options.burst,
  });
  // A server-requested wait pauses every request to the endpoint, not only the one that was told.
  const retry: RetryOptions = {
    maxRetries: options.maxRetries,
    backoff: { baseMs: options.backoffBaseMs ?? 500, maxMs: options.backoffMaxMs ?? 30_000 },
    maxRetryAfterMs: options.maxRetryAfterMs,
    random: options.random,
    sleep: options.sleep,
    log,
    onRetryAfter: (waitMs) => limiter.bucket.pauseUntil(Date.now() + waitMs),
  };

  // The SDK's retries are off: jitter, Retry-After and the shared limiter are ours. Its own timeout is a
  // backstop only; ours (per attempt, covering streamed bodies) fires first.
  const client = new OpenAI({
    baseURL: baseUrl,
    apiKey: apiKey ?? 'not-needed',
    defaultHeaders: { ...(options.headers ?? {}) },
    maxRetries: 0,
    timeout: timeoutMs + 5_000,
    // The SDK's own messages go through our redacting log, never straight to the console (OPENAI_LOG=debug
    // would otherwise print request details).
    logLevel: 'warn',
    logger: {
      error: (message: string) => log(`openai sdk: ${message}`),
      warn: (message: string) => log(`openai sdk: ${message}`),
      info: () => undefined,
      debug: () => undefined,
    },
  });

  const modelSpec = (model: string): ResolvedModelSpec => resolveModelSpec(model, id, options.priceOverrides);

  function checkConfigured(): void {
    if (!host) {
      throw new LlmError('bad_request', `The base URL "${baseUrl}" is not a valid URL (expected e.g. https://api.openai.com/v1).`, false);
    }
    if (!apiKey && !keyOptional) {
      throw new LlmError(
        'auth',
        `No API key for ${baseUrl}: set the environment variable ${apiKeyEnv} (CLI) or run "TOFFEE: Set API Key" (VS Code).`,
        false,
      );
    }
  }

  function buildBody(request: CompletionRequest, plan: AttemptPlan, spec: ModelSpec): ChatCompletionCreateParamsBase {
    const tools = request.tools ?? [];
    const messages = plan.protocol === 'json-text' && tools.length > 0 ? toJsonToolConversation(request.messages, tools) : request.messages;
    const body: ChatCompletionCreateParamsBase = { model: request.model, messages: messages.map(toOpenAiMessage) };
    if (plan.protocol === 'native' && tools.length > 0) body.tools = tools.map((tool) => ({ type: 'function', function: tool.function }));
    if (plan.sendReasoning && request.reasoningEffort) body.reasoning_effort = request.reasoningEffort;
    if (request.maxTokens !== undefined) {
      // Reasoning models reject max_tokens; most other OpenAI-compatible servers only know max_tokens.
      if (spec.supportsReasoningEffort) body.max_completion_tokens = request.maxTokens;
      else body.max_tokens = request.maxTokens;
    }
    return body;
  }

  /** One HTTP exchange under our own timeout; every failure becomes a redacted LlmError. */
  async function attempt(body: ChatCompletionCreateParamsBase, userSignal: AbortSignal | undefined): Promise<AttemptResult> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onUserAbort = (): void => controller.abort();
    userSignal?.addEventListener('abort', onUserAbort, { once: true });
    const started = performance.now();
    try {
      if (userSignal?.aborted) throw new LlmError('cancelled', 'The model request was cancelled.', false);
      if (options.stream) {
        const stream = await client.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          { signal: controller.signal },
        );
        const assembled = await assembleStream(stream);
        // The SDK ends a stream quietly when its signal aborts; a cut-off reply must not pass as complete.
        if (controller.signal.aborted) throw new Error('stream aborted');
        return { ...assembled, latencyMs: performance.now() - started };
      }
      const response = (await client.chat.completions.create({ ...body, stream: false }, { signal: controller.signal })) as ChatCompletion;
      return { ...readCompletion(response), latencyMs: performance.now() - started };
    } catch (error) {
      if (userSignal?.aborted) throw new LlmError('cancelled', 'The model request was cancelled.', false);
      if (timedOut) {
        throw new LlmError('timeout', `The endpoint ${baseUrl} did not answer within ${timeoutMs} ms.`, true);
      }
      throw classifyError(error, baseUrl, secrets);
    } finally {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    }
  }

  /** One attempt under the endpoint's shared limiter (retries wrap the provider: retry.ts). */
  async function limited(body: ChatCompletionCreateParamsBase, signal: AbortSignal | undefined): Promise<AttemptResult> {
    const release = await limiter.acquire(signal);
    try {
      return await attempt(body, signal);
    } finally {
      release();
    }
  }

  async function complete(request: CompletionRequest): Promise<Completion> {
    checkConfigured();
    const spec = modelSpec(request.model);
    const caps = capabilitiesFor(baseUrl, request.model);
    const warnings: string[] = [];
    if (spec.warning) warnings.push(spec.warning);
    const hasTools = (request.tools?.length ?? 0) > 0;
    const plan: AttemptPlan = {
      protocol:
        toolProtocol === 'json-text' || (toolProtocol === 'auto' && (caps.nativeTools === false || (spec.priceSource === 'table' && !spec.supportsTools)))
          ? 'json-text'
          : 'native',
      sendReasoning: request.reasoningEffort !== undefined && caps.reasoningEffort !== false && (spec.priceSource !== 'table' || spec.supportsReasoningEffort),
    };
    if (request.reasoningEffort !== undefined && !plan.sendReasoning) {
      warnings.push(`Model "${request.model}" does not accept reasoning_effort; it was not sent.`);
    }

    // Capability fallbacks retry at once and do not count against maxRetries; each can happen once.
    let result: AttemptResult;
    for (;;) {
      try {
        result = await limited(buildBody(request, plan, spec), request.signal);
        break;
      } catch (error) {
        if (!(error instanceof LlmError) || error.kind !== 'bad_request') throw error;
        const detail = `${error.detail ?? ''} ${error.message}`;
        if (plan.sendReasoning && looksLikeReasoningUnsupported(detail)) {
          caps.reasoningEffort = false;
          plan.sendReasoning = false;
          warnings.push(`Model "${request.model}" rejected reasoning_effort; retried without it.`);
          log(`${request.model}: reasoning_effort rejected; retrying without it`);
          continue;
        }
        if (hasTools && plan.protocol === 'native' && toolProtocol === 'auto' && caps.nativeTools !== true && looksLikeToolsUnsupported(detail)) {
          caps.nativeTools = false;
          plan.protocol = 'json-text';
          warnings.push(`Endpoint rejected native tools for "${request.model}"; using the JSON-in-text tool protocol.`);
          log(`${request.model}: native tools rejected; falling back to JSON-in-text tool calls`);
          continue;
        }
        throw error;
      }
    }
    if (plan.sendReasoning) caps.reasoningEffort = true;

    let { content, toolCalls } = result;
    if (hasTools && plan.protocol === 'json-text') {
      const parsed = parseJsonToolReply(content ?? '', textCallIdPrefix(request.messages));
      content = parsed.content;
      toolCalls = parsed.toolCalls;
    } else if (hasTools) {
      if (toolCalls.length > 0) caps.nativeTools = true;
      else if (content) {
        // Some servers accept `tools` but the model writes the call as text; take it when it names an offered tool.
        const offered = new Set(request.tools!.map((t) => t.function.name));
        const parsed = parseJsonToolReply(content, textCallIdPrefix(request.messages));
        if (parsed.toolCalls.length > 0 && parsed.toolCalls.every((call) => offered.has(call.name))) {
          content = parsed.content;
          toolCalls = parsed.toolCalls;
        }
      }
    }

    let usage = result.usage;
    if (!usage) {
      usage = estimateUsage(request.messages, request.tools, content, toolCalls);
      warnings.push('The endpoint reported no token usage; counts are estimated from text length.');
    }
    const completion: Completion = {
      message: { content, toolCalls },
      usage,
      costUsd: costUsd(usage, spec),
      latencyMs: Math.round(result.latencyMs),
      toolProtocol: hasTools ? plan.protocol : undefined,
    };
    if (result.finishReason) completion.finishReason = result.finishReason;
    if (warnings.length > 0) completion.warnings = warnings;
    if (!hasTools) delete completion.toolProtocol;
    return completion;
  }

  async function probeCapabilities(model: string, signal?: AbortSignal): Promise<EndpointCapabilities> {
    checkConfigured();
    const caps = capabilitiesFor(baseUrl, model);
    const spec = modelSpec(model);
    const ping: ToolDefinition = {
      type: 'function',
      function: { name: 'ping', description: 'Answer the probe.', parameters: { type: 'object', properties: {}, additionalProperties: false } },
    };
    const probeMessages: ChatMessage[] = [{ role: 'user', content: 'Call the ping tool.' }];
    if (caps.nativeTools === undefined) {
      const body = buildBody({ model, messages: probeMessages, tools: [ping], maxTokens: 64 }, { protocol: 'native', sendReasoning: false }, spec);
      caps.nativeTools = await probeAccepts(body, signal, looksLikeToolsUnsupported);
      log(`${model}: probe says native tools ${caps.nativeTools ? 'supported' : 'unsupported'}`);
    }
    if (caps.reasoningEffort === undefined) {
      const body = buildBody({ model, messages: probeMessages, reasoningEffort: 'low', maxTokens: 64 }, { protocol: 'native', sendReasoning: true }, spec);
      caps.reasoningEffort = await probeAccepts(body, signal, looksLikeReasoningUnsupported);
      log(`${model}: probe says reasoning_effort ${caps.reasoningEffort ? 'supported' : 'unsupported'}`);
    }
    return { ...caps };
  }

  /** True when the endpoint answers; false when it rejects the feature with a 400-class error; other errors propagate. */
  async function probeAccepts(body: ChatCompletionCreateParamsBase, signal: AbortSignal | undefined, rejects: (detail: string) => boolean): Promise<boolean> {
    try {
      await retrying(() => limited(body, signal), { label: body.model, signal }, retry);
      return true;
    } catch (error) {
      if (error instanceof LlmError && error.kind === 'bad_request' && rejects(`${error.detail ?? ''} ${error.message}`)) return false;
      throw error;
    }
  }

  async function listModels(): Promise<ModelSpec[]> {
    if (options.models && options.models.length > 0) return options.models.map(modelSpec);
    checkConfigured();
    const release = await limiter.acquire();
    try {
      const ids: string[] = [];
      for await (const model of client.models.list({ timeout: timeoutMs })) ids.push(model.id);
      return ids.sort().map(modelSpec);
    } catch (error) {
      throw classifyError(error, baseUrl, secrets);
    } finally {
      release();
    }
  }

  return withRetry({ id, baseUrl, listModels, complete, modelSpec, probeCapabilities }, retry);
}

/** Our ChatMessage → the Chat Completions wire shape. */
export function toOpenAiMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      return message.toolCalls && message.toolCalls.length > 0
        ? {
            role: 'assistant',
            content: message.content,
            tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
          }
        : { role: 'assistant', content: message.content ?? '' };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

function readCompletion(response: ChatCompletion): Omit<AttemptResult, 'latencyMs'> {
  const choice = response?.choices?.[0];
  if (!choice || !choice.message) {
    throw new LlmError('bad_response', 'The endpoint answered without any choice (empty "choices").', true);
  }
  const toolCalls: ToolCallRequest[] = [];
  for (const [index, call] of (choice.message.tool_calls ?? []).entries()) {
    if (call.type !== 'function' && !('function' in call)) continue;
    const fn = (call as { function?: { name?: string; arguments?: string } }).function;
    toolCalls.push({
      id: call.id || `call_${index + 1}`,
      name: fn?.name ?? '',
      arguments: typeof fn?.arguments === 'string' ? fn.arguments : JSON.stringify(fn?.arguments ?? {}),
    });
  }
  return {
    content: choice.message.content ?? null,
    toolCalls,
    usage: readUsage(response.usage),
    finishReason: choice.finish_reason ?? undefined,
  };
}

/** Concatenate SSE deltas; tool calls are keyed by their `index`, their argument fragments appended in order. */
export async function assembleStream(stream: AsyncIterable<ChatCompletionChunk>): Promise<Omit<AttemptResult, 'latencyMs'>> {
  let content = '';
  let sawContent = false;
  let finishReason: string | undefined;
  let usage: Usage | undefined;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const chunk of stream) {
    if (chunk.usage) usage = readUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    if (choice.finish_reason) finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (!delta) continue;
    if (typeof delta.content === 'string') {
      content += delta.content;
      sawContent = true;
    }
    for (const part of delta.tool_calls ?? []) {
      const index = part.index ?? calls.size;
      const current = calls.get(index) ?? { id: '', name: '', arguments: '' };
      if (part.id) current.id = part.id;
      const name = part.function?.name;
      if (name && !current.name.endsWith(name)) current.name += name;
      if (part.function?.arguments) current.arguments += part.function.arguments;
      calls.set(index, current);
    }
  }
  if (!sawContent && calls.size === 0 && finishReason === undefined) {
    throw new LlmError('bad_response', 'The endpoint closed the stream without sending a reply.', true);
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({ id: call.id || `call_${index + 1}`, name: call.name, arguments: call.arguments }));
  return { content: sawContent ? content : null, toolCalls, usage, finishReason };
}

function readUsage(raw: ChatCompletion['usage'] | null | undefined): Usage | undefined {
  if (!raw || typeof raw.prompt_tokens !== 'number') return undefined;
  const usage: Usage = { prompt: raw.prompt_tokens, completion: raw.completion_tokens ?? 0 };
  const cached = raw.prompt_tokens_details?.cached_tokens;
  const reasoning = raw.completion_tokens_details?.reasoning_tokens;
  if (typeof cached === 'number') usage.cached = cached;
  if (typeof reasoning === 'number') usage.reasoning = reasoning;
  return usage;
}

/** Good enough to keep budgets moving when a server omits usage. */
function estimateUsage(messages: readonly ChatMessage[], tools: readonly ToolDefinition[] | undefined, content: string | null, calls: readonly ToolCallRequest[]): Usage {
  return { prompt: estimateMessagesTokens(messages, tools), completion: estimateTokens((content ?? '') + calls.map((c) => c.name + c.arguments).join('')) };
}

/** Map anything the SDK or fetch throws to an LlmError in plain words, with secrets removed. */
export function classifyError(error: unknown, baseUrl: string, secrets: readonly (string | undefined)[]): LlmError {
  if (error instanceof LlmError) return error.redacted(secrets);
  const make = (kind: LlmError['kind'], message: string, retryable: boolean, extra: { status?: number; retryAfterMs?: number; detail?: string } = {}): LlmError =>
    new LlmError(kind, message, retryable, extra).redacted(secrets);

  if (error instanceof OpenAI.APIUserAbortError) return make('cancelled', 'The model request was cancelled.', false);
  if (error instanceof OpenAI.APIConnectionTimeoutError) return make('timeout', `The endpoint ${baseUrl} did not answer in time.`, true);
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const causeText = cause instanceof Error ? `${cause.message}${(cause as { cause?: unknown }).cause instanceof Error ? `: ${((cause as { cause: Error }).cause).message}` : ''}` : '';
    return make('network', `Could not reach ${baseUrl}${causeText ? ` (${causeText})` : ''}.`, true, { detail: causeText || error.message });
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status;
    const serverText = serverMessage(error);
    const retryAfterMs = parseRetryAfterMs(error.headers);
    const extra = { status, retryAfterMs, detail: serverText };
    const said = serverText ? ` The server said: ${truncate(serverText, 300)}` : '';
    const code = `${error.code ?? ''} ${error.type ?? ''}`;
    if (status === 401 || status === 403) {
      return make('auth', `The endpoint ${baseUrl} rejected the API key (HTTP ${status}). Check the key for this base URL.${said}`, false, extra);
    }
    if (status === 402 || /insufficient_quota|billing|credits/i.test(code) || (status === 429 && /quota|billing|credit/i.test(serverText) && !/rate/i.test(serverText))) {
      return make('quota', `The account behind ${baseUrl} is out of quota or credits (HTTP ${status}).${said}`, false, extra);
    }
    if (status === 429) {
      return make('rate_limit', `The endpoint ${baseUrl} is rate limiting requests (HTTP 429).${said}`, true, extra);
    }
    if (status === 408) return make('timeout', `The endpoint ${baseUrl} timed out the request (HTTP 408).${said}`, true, extra);
    if (isRetryableStatus(status)) {
      return make('server', `The endpoint ${baseUrl} failed with HTTP ${status}.${said}`, true, extra);
    }
    return make('bad_request', `The endpoint ${baseUrl} refused the request (HTTP ${status}).${said}`, false, extra);
  }
  if (error instanceof SyntaxError || (error instanceof OpenAI.OpenAIError && /json|parse/i.test(error.message))) {
    return make('bad_response', `The endpoint ${baseUrl} sent a reply that is not valid JSON.`, true, { detail: error.message });
  }
  if (error instanceof Error && (error.name === 'AbortError' || /aborted/i.test(error.message))) {
    return make('cancelled', 'The model request was cancelled.', false);
  }
  const message = error instanceof Error ? error.message : String(error);
  return make('network', `The request to ${baseUrl} failed: ${truncate(message, 300)}`, true, { detail: message });
}

function serverMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | string | undefined;
  if (typeof body === 'string') return body;
  if (body && typeof body.message === 'string') return body.message;
  return (error.message ?? '').replace(/^\d{3}\s*/, '');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Retry with backoff, as a wrapper any provider gets: a failure its provider classified as retryable (rate
 * limits, timeouts, server and network errors: `LlmError.retryable`) is tried again after a full-jitter backoff,
 * or after the wait the server asked for (Retry-After, capped); anything else, and the last failure, is thrown.
 * The OpenAI-compatible provider and the VS Code language models both come wrapped.
 */
import { LlmError, isLlmError } from './errors';
import { abortableSleep, fullJitterBackoffMs, type BackoffOptions } from './retryPolicy';
import type { Completion, CompletionRequest, LlmProvider } from './types';

export interface RetryOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** Full-jitter backoff base and cap. Defaults 500 ms and 30 000 ms. */
  backoff?: BackoffOptions;
  /** Longest Retry-After waited; a longer request is waited for this long. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** RNG for the jitter (tests pass a fixed one). */
  random?: () => number;
  /** How a wait is spent (default: a timer the request's signal cancels). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** One line per retry. */
  log?: (line: string) => void;
  /** Told of a server-requested wait before it is waited (the OpenAI provider pauses its endpoint's limiter). */
  onRetryAfter?: (waitMs: number) => void;
}

/**
 * The provider with its retryable failures retried; `Completion.attempts` counts the attempts made. Everything
 * else (the model list, a provider's own extras) is the provider's, reached through the prototype chain.
 */
export function withRetry<P extends LlmProvider>(provider: P, options: RetryOptions = {}): P {
  const retried = Object.create(provider) as P;
  const complete = async (request: CompletionRequest): Promise<Completion> => {
    const { value, attempts } = await retrying(() => provider.complete(request), { label: request.model, signal: request.signal }, options);
    return { ...value, attempts };
  };
  Object.defineProperty(retried, 'complete', { value: complete });
  return retried;
}

/** Runs `attempt` until it succeeds, fails for good, or the retries run out; `label` names it in the log. */
export async function retrying<T>(attempt: () => Promise<T>, context: { label: string; signal?: AbortSignal }, options: RetryOptions = {}): Promise<{ value: T; attempts: number }> {
  const maxRetries = Math.max(0, options.maxRetries ?? 4);
  for (let index = 0; ; index++) {
    let failure: LlmError;
    try {
      return { value: await attempt(), attempts: index + 1 };
    } catch (error) {
      if (!isLlmError(error) || !error.retryable) throw error;
      failure = error;
    }
    if (index === maxRetries) throw gaveUp(failure, index + 1);
    const waitMs = retryWaitMs(failure, index, options);
    options.log?.(`${context.label}: ${failure.kind}${failure.status ? ` (HTTP ${failure.status})` : ''}; retry ${index + 1}/${maxRetries} in ${waitMs} ms`);
    try {
      await (options.sleep ?? abortableSleep)(waitMs, context.signal);
    } catch {
      throw new LlmError('cancelled', 'The model request was cancelled while waiting to retry.', false, { attempts: index + 1 });
    }
  }
}

/** The wait before retry `attempt + 1`: the server's Retry-After (capped, lightly jittered), else full-jitter backoff. */
export function retryWaitMs(failure: LlmError, attempt: number, options: RetryOptions = {}): number {
  const backoff = options.backoff ?? { baseMs: 500, maxMs: 30_000 };
  const random = options.random ?? Math.random;
  if (failure.retryAfterMs === undefined) return fullJitterBackoffMs(attempt, backoff, random);
  const waitMs = Math.min(failure.retryAfterMs, options.maxRetryAfterMs ?? 60_000) + Math.floor(random() * Math.min(backoff.baseMs, 1_000));
  options.onRetryAfter?.(waitMs);
  return waitMs;
}

function gaveUp(last: LlmError, attempts: number): LlmError {
  return new LlmError(last.kind, `${last.message} Gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}.`, true, {
    status: last.status,
    attempts,
    retryAfterMs: last.retryAfterMs,
    detail: last.detail,
  });
}

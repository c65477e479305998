import type { ToolCallRequest } from './types';

/** Why a model call failed, in the words the explorer, the CLI and the UI branch on. */
export type LlmErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'timeout'
  | 'cancelled'
  | 'server'
  | 'network'
  | 'bad_request'
  | 'bad_response'
  | 'malformed_tool_arguments'
  | 'quota'
  | 'consent';

export interface LlmErrorDetails {
  /** HTTP status of the last response, when there was one. */
  status?: number;
  /** Attempts made before giving up (1 = no retry). */
  attempts?: number;
  /** Server-requested wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** Short, already-redacted text from the server or the SDK, for logs. */
  detail?: string;
}

/**
 * The one error type every provider throws. The message is plain words meant for a person; it never carries
 * a secret (every construction path passes through `redactSecrets`). No `cause` is attached on purpose:
 * SDK errors can hold echoed request data, and `util.inspect` would print it.
 */
export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly retryable: boolean;
  readonly status?: number;
  readonly attempts?: number;
  readonly retryAfterMs?: number;
  readonly detail?: string;

  constructor(kind: LlmErrorKind, message: string, retryable: boolean, details: LlmErrorDetails = {}) {
    super(message);
    this.name = 'LlmError';
    this.kind = kind;
    this.retryable = retryable;
    if (details.status !== undefined) this.status = details.status;
    if (details.attempts !== undefined) this.attempts = details.attempts;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.detail !== undefined) this.detail = details.detail;
  }

  /** A copy with every secret removed from message and detail. */
  redacted(secrets: readonly (string | undefined)[]): LlmError {
    const copy = new LlmError(this.kind, redactSecrets(this.message, secrets), this.retryable, {
      status: this.status,
      attempts: this.attempts,
      retryAfterMs: this.retryAfterMs,
      detail: this.detail === undefined ? undefined : redactSecrets(this.detail, secrets),
    });
    copy.stack = redactSecrets(this.stack ?? '', secrets);
    return copy;
  }
}

export function isLlmError(value: unknown): value is LlmError {
  return value instanceof LlmError;
}

export const REDACTED = '[redacted]';

/** Shortest secret we redact literally; shorter strings would blank out ordinary words. */
const MIN_SECRET_LENGTH = 6;

/**
 * Remove secrets from text that may reach a log, an error message or a file: each given secret verbatim,
 * its masked echoes (servers print "sk-abc…wxyz" or "sk-ab****wxyz": long prefixes/suffixes of the key),
 * bearer tokens and strings shaped like common API keys.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    result = result.split(secret).join(REDACTED);
    // Masked echoes keep a head and a tail of the key; redact any 8+ char head or tail that survives.
    if (secret.length >= 16) {
      for (const piece of [secret.slice(0, 8), secret.slice(-8)]) {
        result = result.split(piece).join(REDACTED);
      }
    }
  }
  return result
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`)
    .replace(/\b(sk|rk|pk)-[A-Za-z0-9_*.-]{12,}/g, REDACTED)
    .replace(/\b(sk-or-v1|sk-ant|gsk|xai)-[A-Za-z0-9_*-]{8,}/g, REDACTED);
}

export type ToolArgumentsResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: LlmError };

/**
 * Parse a tool call's arguments. The model's text is kept as-is in the completion; this turns it into either
 * an object or a typed `malformed_tool_arguments` error the explorer makes into an error node (never a throw).
 * An empty string means "no arguments" (several servers send it for parameterless tools).
 */
export function parseToolArguments(call: Pick<ToolCallRequest, 'name' | 'arguments'>): ToolArgumentsResult {
  const text = call.arguments.trim();
  if (text === '') return { ok: true, value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: new LlmError(
        'malformed_tool_arguments',
        `The model called tool "${call.name}" with arguments that are not valid JSON (${reason}): ${preview(text)}`,
        false,
        { detail: preview(text) },
      ),
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const shape = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
    return {
      ok: false,
      error: new LlmError(
        'malformed_tool_arguments',
        `The model called tool "${call.name}" with ${shape} as arguments; a JSON object was expected: ${preview(text)}`,
        false,
        { detail: preview(text) },
      ),
    };
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}

function preview(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

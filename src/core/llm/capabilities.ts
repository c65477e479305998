import { endpointKey } from './endpointLimiter';

/** What an endpoint+model accepts; undefined = not yet known (the first real request or a probe decides). */
export interface EndpointCapabilities {
  nativeTools?: boolean;
  reasoningEffort?: boolean;
}

const cache = new Map<string, EndpointCapabilities>();

function key(baseUrl: string, model: string): string {
  return `${endpointKey(baseUrl)}#${model}`;
}

/** The shared, mutable capability record for one endpoint+model (process-wide, like the limiters). */
export function capabilitiesFor(baseUrl: string, model: string): EndpointCapabilities {
  const k = key(baseUrl, model);
  let entry = cache.get(k);
  if (!entry) {
    entry = {};
    cache.set(k, entry);
  }
  return entry;
}

export function forgetCapabilities(baseUrl?: string): void {
  if (baseUrl === undefined) {
    cache.clear();
    return;
  }
  const prefix = `${endpointKey(baseUrl)}#`;
  for (const k of [...cache.keys()]) if (k.startsWith(prefix)) cache.delete(k);
}

/** A 400-class rejection caused by the `tools` parameter (server or model without function calling). */
export function looksLikeToolsUnsupported(detail: string): boolean {
  return /\b(tools?|tool_choice|function[ _]?call(ing)?|functions)\b/i.test(detail) &&
    /(not|un)[ -]?(supported|support|available|allowed|recogni[sz]ed|permitted)|does not support|no endpoints? found|unknown|invalid|extra (fields|inputs)|unexpected/i.test(detail);
}

/** A 400-class rejection caused by `reasoning_effort`. */
export function looksLikeReasoningUnsupported(detail: string): boolean {
  return /reasoning[_ .]?effort|reasoning/i.test(detail) &&
    /(not|un)[ -]?(supported|support|available|allowed|recogni[sz]ed|permitted)|does not support|unknown|invalid|extra (fields|inputs)|unexpected|unrecognized/i.test(detail);
}

import { LlmError } from './errors';

/**
 * Concurrency limit + token-bucket rate limit for one endpoint (base URL). Every provider that points at the
 * same base URL shares one limiter, so two explorers (or two model configs on one gateway) cannot together
 * exceed what the endpoint allows. A 429 with Retry-After pauses the whole endpoint, not just one request.
 */
export interface EndpointLimits {
  /** Requests in flight at once; <= 0 or undefined means unlimited. */
  concurrency?: number;
  /** Requests started per minute; <= 0 or undefined means unlimited. */
  requestsPerMinute?: number;
  /** Bucket capacity (requests that may start back to back); default 1 = evenly spaced. */
  burst?: number;
}

function cancelled(): LlmError {
  return new LlmError('cancelled', 'The model request was cancelled before it was sent.', false);
}

/** Counting semaphore whose waiters can be cancelled (a cancelled waiter never takes a slot). */
export class Semaphore {
  private active = 0;
  private readonly waiters: Array<{ grant: () => void }> = [];

  constructor(private limit: number) {}

  get inFlight(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiters.length;
  }

  setLimit(limit: number): void {
    this.limit = limit;
    this.drain();
  }

  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: (): void => {
          signal?.removeEventListener('abort', onAbort);
          this.active += 1;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.active -= 1;
            this.drain();
          });
        },
      };
      const onAbort = (): void => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.drain();
    });
  }

  private drain(): void {
    while (this.waiters.length > 0 && (this.limit <= 0 || this.active < this.limit)) {
      this.waiters.shift()!.grant();
    }
  }
}

/**
 * Token bucket, refilled continuously at `perMinute / 60000` tokens per ms. Reservations are made in order
 * (the balance may go negative = a queue), and a cancelled waiter returns its token.
 */
export class TokenBucket {
  private tokens: number;
  private lastRefill: number;
  private pausedUntil = 0;

  constructor(
    private perMinute: number,
    private capacity: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = capacity;
    this.lastRefill = now();
  }

  configure(perMinute: number, capacity: number): void {
    this.refill();
    this.perMinute = perMinute;
    this.capacity = capacity;
    this.tokens = Math.min(this.tokens, capacity);
  }

  /** Nobody starts a request before `until` (epoch ms). */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  async take(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw cancelled();
    let waitMs = Math.max(0, this.pausedUntil - this.now());
    if (this.perMinute > 0) {
      this.refill();
      this.tokens -= 1;
      if (this.tokens < 0) waitMs = Math.max(waitMs, (-this.tokens * 60_000) / this.perMinute);
    }
    if (waitMs <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        if (this.perMinute > 0) this.tokens += 1;
        reject(cancelled());
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.ceil(waitMs));
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private refill(): void {
    const now = this.now();
    if (this.perMinute > 0) {
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.lastRefill) * this.perMinute) / 60_000);
    }
    this.lastRefill = now;
  }
}

export class EndpointLimiter {
  readonly semaphore: Semaphore;
  readonly bucket: TokenBucket;
  private limits: Required<EndpointLimits>;

  constructor(limits: EndpointLimits = {}) {
    this.limits = normalize(limits);
    this.semaphore = new Semaphore(this.limits.concurrency);
    this.bucket = new TokenBucket(this.limits.requestsPerMinute, this.limits.burst);
  }

  get currentLimits(): Readonly<Required<EndpointLimits>> {
    return this.limits;
  }

  /** Merge another provider's limits: the stricter value of each wins (0 = unlimited). */
  tighten(limits: EndpointLimits): void {
    const next = normalize(limits);
    const stricter = (a: number, b: number): number => (a <= 0 ? b : b <= 0 ? a : Math.min(a, b));
    this.limits = {
      concurrency: stricter(this.limits.concurrency, next.concurrency),
      requestsPerMinute: stricter(this.limits.requestsPerMinute, next.requestsPerMinute),
      burst: Math.max(1, Math.min(this.limits.burst, next.burst)),
    };
    this.semaphore.setLimit(this.limits.concurrency);
    this.bucket.configure(this.limits.requestsPerMinute, this.limits.burst);
  }

  /** Wait for a concurrency slot, then for a rate token; returns the slot's release function. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    const release = await this.semaphore.acquire(signal);
    try {
      await this.bucket.take(signal);
      return release;
    } catch (error) {
      release();
      throw error;
    }
  }
}

function normalize(limits: EndpointLimits): Required<EndpointLimits> {
  return {
    concurrency: Math.max(0, Math.floor(limits.concurrency ?? 0)),
    requestsPerMinute: Math.max(0, limits.requestsPerMinute ?? 0),
    burst: Math.max(1, Math.floor(limits.burst ?? 1)),
  };
}

const limiters = new Map<string, EndpointLimiter>();

/** Key an endpoint by its base URL without trailing slashes, case-folded host. */
export function endpointKey(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl.replace(/\/+$/, '');
  }
}

/** The process-wide limiter for a base URL, created on first use and tightened by later users. */
export function sharedEndpointLimiter(baseUrl: string, limits: EndpointLimits): EndpointLimiter {
  const key = endpointKey(baseUrl);
  const existing = limiters.get(key);
  if (existing) {
    existing.tighten(limits);
    return existing;
  }
  const created = new EndpointLimiter(limits);
  limiters.set(key, created);
  return created;
}

/** Drop the shared limiter of one base URL (or all): for tests, and when settings change. */
export function forgetEndpointLimiter(baseUrl?: string): void {
  if (baseUrl === undefined) limiters.clear();
  else limiters.delete(endpointKey(baseUrl));
}

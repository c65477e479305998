import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted OpenAI-compatible endpoint for tests (node:http on 127.0.0.1, port 0). Each POST
 * /chat/completions takes the next behaviour from a queue (or the default); standing rules (reject `tools`,
 * reject `reasoning_effort`) apply before the queue. Every request is logged with headers and parsed body, and
 * the number of requests in flight is tracked so tests can assert concurrency limits.
 */

export interface MockUsage {
  prompt: number;
  completion: number;
  cached?: number;
  reasoning?: number;
}

export interface MockToolCall {
  id?: string;
  name: string;
  /** Sent verbatim, so tests can send malformed JSON. */
  arguments: string;
}

export type MockBehaviour =
  | { kind: 'text'; content: string; usage?: MockUsage | null; delayMs?: number }
  | { kind: 'toolCalls'; calls: MockToolCall[]; content?: string | null; usage?: MockUsage | null; delayMs?: number }
  /** Any status with an OpenAI-style error body; `headers` e.g. { 'retry-after': '1' }. */
  | { kind: 'error'; status: number; message?: string; code?: string; headers?: Record<string, string>; delayMs?: number }
  /** Accept the request and never answer (until the client gives up or the server closes). */
  | { kind: 'hang' }
  /** Answer 200 with a body that is not JSON. */
  | { kind: 'garbage'; body: string }
  /** Decide the reply from the request (e.g. answer with a value read from the tool result it carries). */
  | { kind: 'fromRequest'; respond: (request: ReceivedRequest) => MockBehaviour }
  /** Write the reply yourself. */
  | { kind: 'custom'; handle: (request: ReceivedRequest, response: http.ServerResponse) => void };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: Record<string, unknown> | undefined;
  receivedAt: number;
  /** The behaviour that answered (its kind), or the standing rule's name. */
  answeredWith?: string;
}

export interface MockServerOptions {
  /** Answer when the queue is empty; default a plain text "ok". */
  defaultBehaviour?: MockBehaviour;
  /** 400 for any request carrying `tools` (an endpoint without function calling). */
  rejectTools?: boolean;
  /** 400 for any request carrying `reasoning_effort`. */
  rejectReasoningEffort?: boolean;
  /** Models listed by GET /models. */
  models?: string[];
  /** Character count of each streamed argument fragment (small = many deltas). */
  streamFragmentSize?: number;
}

export class MockOpenAiServer {
  readonly requests: ReceivedRequest[] = [];
  rejectTools: boolean;
  rejectReasoningEffort: boolean;
  private readonly queue: MockBehaviour[] = [];
  private readonly server: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();
  private inFlightNow = 0;
  private inFlightMax = 0;
  private port = 0;

  private constructor(private readonly options: MockServerOptions) {
    this.rejectTools = options.rejectTools ?? false;
    this.rejectReasoningEffort = options.rejectReasoningEffort ?? false;
    this.server = http.createServer((req, res) => this.onRequest(req, res));
  }

  static async start(options: MockServerOptions = {}): Promise<MockOpenAiServer> {
    const mock = new MockOpenAiServer(options);
    await new Promise<void>((resolve, reject) => {
      mock.server.once('error', reject);
      mock.server.listen(0, '127.0.0.1', () => resolve());
    });
    mock.port = (mock.server.address() as AddressInfo).port;
    return mock;
  }

  /** Base URL to give the client, e.g. http://127.0.0.1:PORT/v1 */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Most chat requests that were being served at the same moment. */
  get maxConcurrent(): number {
    return this.inFlightMax;
  }

  /** Chat requests being served now (answered or closed ones are not counted). */
  get inFlight(): number {
    return this.inFlightNow;
  }

  get chatRequests(): ReceivedRequest[] {
    return this.requests.filter((r) => r.path.endsWith('/chat/completions'));
  }

  enqueue(...behaviours: MockBehaviour[]): this {
    this.queue.push(...behaviours);
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.hanging.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> | undefined;
      try {
        body = rawBody ? (JSON.parse(rawBody) as Record<string, unknown>) : undefined;
      } catch {
        body = undefined;
      }
      const received: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0],
        headers: req.headers,
        rawBody,
        body,
        receivedAt: Date.now(),
      };
      this.requests.push(received);
      if (received.method === 'GET' && received.path.endsWith('/models')) {
        sendJson(res, 200, { object: 'list', data: (this.options.models ?? []).map((id) => ({ id, object: 'model', created: 0, owned_by: 'mock' })) });
        return;
      }
      if (!received.path.endsWith('/chat/completions')) {
        sendJson(res, 404, { error: { message: `No route ${received.path}`, type: 'invalid_request_error' } });
        return;
      }
      this.inFlightNow += 1;
      this.inFlightMax = Math.max(this.inFlightMax, this.inFlightNow);
      let counted = true;
      const done = (): void => {
        if (counted) {
          counted = false;
          this.inFlightNow -= 1;
        }
      };
      res.on('finish', done);
      res.on('close', done);
      this.answer(received, res);
    });
  }

  private answer(request: ReceivedRequest, res: http.ServerResponse): void {
    const body = request.body ?? {};
    if (this.rejectTools && Array.isArray(body.tools)) {
      request.answeredWith = 'rejectTools';
      sendJson(res, 400, { error: { message: '"tools" is not supported by this model', type: 'invalid_request_error', param: 'tools', code: null } });
      return;
    }
    if (this.rejectReasoningEffort && body.reasoning_effort !== undefined) {
      request.answeredWith = 'rejectReasoningEffort';
      sendJson(res, 400, { error: { message: 'Unrecognized request argument supplied: reasoning_effort', type: 'invalid_request_error', param: 'reasoning_effort', code: null } });
      return;
    }
    const behaviour = this.queue.shift() ?? this.options.defaultBehaviour ?? { kind: 'text', content: 'ok' };
    request.answeredWith = behaviour.kind;
    const delay = 'delayMs' in behaviour ? (behaviour.delayMs ?? 0) : 0;
    const run = (): void => this.perform(behaviour, request, res);
    if (delay > 0) {
      const timer = setTimeout(run, delay);
      res.on('close', () => clearTimeout(timer));
    } else run();
  }

  private perform(behaviour: MockBehaviour, request: ReceivedRequest, res: http.ServerResponse): void {
    if (res.destroyed) return;
    const body = request.body ?? {};
    const model = typeof body.model === 'string' ? body.model : 'mock-model';
    const stream = body.stream === true;
    const includeUsage = stream ? (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true : true;
    switch (behaviour.kind) {
      case 'hang':
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(behaviour.body);
        return;
      case 'custom':
        behaviour.handle(request, res);
        return;
      case 'fromRequest':
        this.perform(behaviour.respond(request), request, res);
        return;
      case 'error':
        sendJson(
          res,
          behaviour.status,
          { error: { message: behaviour.message ?? `mock error ${behaviour.status}`, type: 'mock_error', code: behaviour.code ?? null, param: null } },
          behaviour.headers,
        );
        return;
      case 'text':
      case 'toolCalls': {
        const calls = behaviour.kind === 'toolCalls' ? behaviour.calls.map((c, i) => ({ id: c.id ?? `call_mock_${i + 1}`, name: c.name, arguments: c.arguments })) : [];
        const content = behaviour.kind === 'text' ? behaviour.content : (behaviour.content ?? null);
        const usage = behaviour.usage === undefined ? { prompt: 10, completion: 5 } : behaviour.usage;
        const finish = calls.length > 0 ? 'tool_calls' : 'stop';
        if (stream) this.streamReply(res, model, content, calls, usage && includeUsage ? usage : null, finish);
        else {
          const message: Record<string, unknown> = { role: 'assistant', content };
          if (calls.length > 0) message.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
          const reply: Record<string, unknown> = {
            id: `chatcmpl-mock-${this.requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model,
            choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
          };
          if (usage) reply.usage = wireUsage(usage);
          sendJson(res, 200, reply);
        }
        return;
      }
    }
  }

  private streamReply(
    res: http.ServerResponse,
    model: string,
    content: string | null,
    calls: Array<{ id: string; name: string; arguments: string }>,
    usage: MockUsage | null,
    finish: string,
  ): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const base = { id: 'chatcmpl-mock-stream', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
    const send = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
      res.write(`data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`);
    };
    send([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    if (content) {
      for (const piece of splitEvery(content, 5)) send([{ index: 0, delta: { content: piece }, finish_reason: null }]);
    }
    const size = this.options.streamFragmentSize ?? 4;
    calls.forEach((call, index) => {
      send([{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, finish_reason: null }]);
      for (const piece of splitEvery(call.arguments, size)) {
        send([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finish_reason: null }]);
      }
    });
    send([{ index: 0, delta: {}, finish_reason: finish }]);
    if (usage) send([], { usage: wireUsage(usage) });
    res.end('data: [DONE]\n\n');
  }
}

function splitEvery(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function wireUsage(usage: MockUsage): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    total_tokens: usage.prompt + usage.completion,
  };
  if (usage.cached !== undefined) wire.prompt_tokens_details = { cached_tokens: usage.cached };
  if (usage.reasoning !== undefined) wire.completion_tokens_details = { reasoning_tokens: usage.reasoning };
  return wire;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

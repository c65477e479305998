/**
 * Reading `events.jsonl`: byte-exact line splitting (so a writer can truncate a torn tail at the right offset),
 * per-line decoding with line numbers, and the diagnostics a crash or a bad edit leaves behind.
 */
import * as fs from 'node:fs';
import { decodeEvent, EventValidationError, type StoredRunEvent } from './events';

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1 << 20;

export interface LogIssue {
  severity: 'warning' | 'error';
  kind: 'torn-tail' | 'corrupt-line' | 'seq-gap' | 'seq-duplicate';
  /** 1-based line number in events.jsonl. */
  line: number;
  /** Byte offset of the line's start. */
  offset: number;
  message: string;
}

export interface RawLine {
  /** 1-based. */
  line: number;
  offset: number;
  text: string;
}

/** Splits a byte stream into complete lines, remembering where each starts; leftover bytes wait for more. */
export class LineSplitter {
  private pending: Buffer = Buffer.alloc(0);
  private pendingOffset: number;
  private nextLine: number;

  constructor(startOffset = 0, startLine = 1) {
    this.pendingOffset = startOffset;
    this.nextLine = startLine;
  }

  /** Complete lines in the chunk (newline excluded). */
  push(chunk: Buffer): RawLine[] {
    const buffer = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const lines: RawLine[] = [];
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      lines.push({ line: this.nextLine++, offset: this.pendingOffset + start, text: buffer.toString('utf8', start, end) });
      start = end + 1;
    }
    this.pendingOffset += start;
    this.pending = start < buffer.length ? Buffer.from(buffer.subarray(start)) : Buffer.alloc(0);
    return lines;
  }

  /** Offset just past the last complete line: everything before it is whole lines. */
  get committedOffset(): number {
    return this.pendingOffset;
  }

  get linesSeen(): number {
    return this.nextLine - 1;
  }

  /** Bytes after the last newline (a line still being written, or torn by a crash). */
  get partial(): Buffer {
    return this.pending;
  }
}

/** Tracks seq continuity and turns raw lines into events or issues. */
export class EventDecoder {
  lastSeq = 0;
  readonly issues: LogIssue[] = [];

  decode(raw: RawLine): StoredRunEvent | undefined {
    if (raw.text.trim() === '') return undefined;
    let event: StoredRunEvent;
    try {
      event = decodeEvent(JSON.parse(raw.text));
    } catch (error) {
      const reason = error instanceof EventValidationError || error instanceof SyntaxError ? error.message : String(error);
      this.issues.push({
        severity: 'error',
        kind: 'corrupt-line',
        line: raw.line,
        offset: raw.offset,
        message: `events.jsonl line ${raw.line}: corrupt event skipped (${reason})`,
      });
      return undefined;
    }
    if (event.seq <= this.lastSeq) {
      this.issues.push({
        severity: 'error',
        kind: 'seq-duplicate',
        line: raw.line,
        offset: raw.offset,
        message: `events.jsonl line ${raw.line}: seq ${event.seq} does not follow ${this.lastSeq}; event skipped`,
      });
      return undefined;
    }
    if (event.seq !== this.lastSeq + 1) {
      this.issues.push({
        severity: 'warning',
        kind: 'seq-gap',
        line: raw.line,
        offset: raw.offset,
        message: `events.jsonl line ${raw.line}: seq jumps from ${this.lastSeq} to ${event.seq}`,
      });
    }
    this.lastSeq = event.seq;
    return event;
  }
}

export interface LogScan {
  events: StoredRunEvent[];
  issues: LogIssue[];
  lastSeq: number;
  lines: number;
  /**
   * Where a writer may continue: the end of the last complete line. Bytes after it (a torn tail) are dropped
   * when the log is opened for writing.
   */
  validBytes: number;
  fileBytes: number;
  tornBytes: number;
}

export function tornTailIssue(line: number, offset: number, bytes: number): LogIssue {
  return {
    severity: 'warning',
    kind: 'torn-tail',
    line,
    offset,
    message:
      `events.jsonl line ${line}: torn last line (${bytes} bytes, no newline; a write interrupted by a crash) ` +
      'ignored; it is truncated when the run is next opened for writing',
  };
}

/** Reads the whole log synchronously (used when opening a run); never throws on bad content. */
export function scanEventLogSync(eventsPath: string): LogScan {
  const fd = fs.openSync(eventsPath, 'r');
  try {
    const fileBytes = fs.fstatSync(fd).size;
    const splitter = new LineSplitter();
    const decoder = new EventDecoder();
    const events: StoredRunEvent[] = [];
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let position = 0;
    while (position < fileBytes) {
      const read = fs.readSync(fd, buffer, 0, Math.min(CHUNK_BYTES, fileBytes - position), position);
      if (read === 0) break;
      position += read;
      for (const raw of splitter.push(buffer.subarray(0, read))) {
        const event = decoder.decode(raw);
        if (event) events.push(event);
      }
    }
    return finishScan(events, decoder, splitter, position);
  } finally {
    fs.closeSync(fd);
  }
}

function finishScan(events: StoredRunEvent[], decoder: EventDecoder, splitter: LineSplitter, fileBytes: number): LogScan {
  const issues = decoder.issues;
  const partial = splitter.partial;
  let tornBytes = 0;
  if (partial.length > 0) {
    tornBytes = partial.length;
    issues.push(tornTailIssue(splitter.linesSeen + 1, splitter.committedOffset, partial.length));
  }
  return {
    events,
    issues,
    lastSeq: decoder.lastSeq,
    lines: splitter.linesSeen,
    validBytes: splitter.committedOffset,
    fileBytes,
    tornBytes,
  };
}

/** Streams the log's events without holding the file in memory; issues are reported through the callback. */
export async function* iterateEventLog(
  eventsPath: string,
  onIssue?: (issue: LogIssue) => void,
): AsyncGenerator<StoredRunEvent> {
  const handle = await fs.promises.open(eventsPath, 'r');
  try {
    const splitter = new LineSplitter();
    const decoder = new EventDecoder();
    let reported = 0;
    const flushIssues = () => {
      while (reported < decoder.issues.length) onIssue?.(decoder.issues[reported++]);
    };
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      for (const raw of splitter.push(buffer.subarray(0, bytesRead))) {
        const event = decoder.decode(raw);
        flushIssues();
        if (event) yield event;
      }
    }
    if (splitter.partial.length > 0) {
      onIssue?.(tornTailIssue(splitter.linesSeen + 1, splitter.committedOffset, splitter.partial.length));
    }
  } finally {
    await handle.close();
  }
}

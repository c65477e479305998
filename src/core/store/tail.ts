/**
 * Follows a growing `events.jsonl` written by another process (a CLI run, a queue coordinator) so the host
 * and webview can show it live. Wakes on fs.watch and polls as a fallback (watchers miss events on network
 * and some container file systems). A line still being written is held back until its newline arrives.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isKnownEvent, type StoredRunEvent } from './events';
import { EventDecoder, LineSplitter, type LogIssue } from './eventLog';
import { RUN_FILES } from './runFolder';

export interface TailOptions {
  /** First seq to deliver (inclusive); default 1, the whole log. A webview resync passes its last seq + 1. */
  fromSeq?: number;
  /** Stops the tail; the iterator then ends normally. */
  signal?: AbortSignal;
  /** Polling interval in ms when fs.watch is silent (default 250). */
  pollMs?: number;
  /** End after delivering run/finished (default false: a finished run may be resumed and grow again). */
  stopAtRunFinished?: boolean;
  /** Corrupt lines and seq anomalies seen while following. */
  onIssue?: (issue: LogIssue) => void;
}

const READ_CHUNK = 1 << 20;

export async function* tail(runDir: string, options: TailOptions = {}): AsyncGenerator<StoredRunEvent> {
  const eventsPath = path.join(runDir, RUN_FILES.events);
  const fromSeq = options.fromSeq ?? 1;
  const pollMs = options.pollMs ?? 250;
  const signal = options.signal;
  let splitter = new LineSplitter();
  let decoder = new EventDecoder();
  let lastDelivered = 0;
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  let watcher: fs.FSWatcher | undefined;
  const startWatcher = () => {
    if (watcher) return;
    try {
      watcher = fs.watch(eventsPath, { persistent: false }, wakeUp);
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined; // polling still works
    }
  };
  signal?.addEventListener('abort', wakeUp);
  const buffer = Buffer.allocUnsafe(READ_CHUNK);
  try {
    while (!signal?.aborted) {
      let size = -1;
      try {
        size = fs.statSync(eventsPath).size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      if (size >= 0) {
        startWatcher();
        if (size < splitter.committedOffset) {
          // The file was replaced or cut below complete lines: start over, delivering only seqs not yet seen.
          splitter = new LineSplitter();
          decoder = new EventDecoder();
        } else if (splitter.partial.length > 0) {
          // Re-read a held-back partial line instead of trusting it: a resuming writer may have truncated a
          // torn tail and written a new line in its place since the last poll.
          splitter = new LineSplitter(splitter.committedOffset, splitter.linesSeen + 1);
        }
        const fd = fs.openSync(eventsPath, 'r');
        try {
          let position = splitter.committedOffset + splitter.partial.length;
          while (position < size && !signal?.aborted) {
            const read = fs.readSync(fd, buffer, 0, Math.min(READ_CHUNK, size - position), position);
            if (read === 0) break;
            position += read;
            const lines = splitter.push(buffer.subarray(0, read));
            const pending: StoredRunEvent[] = [];
            for (const raw of lines) {
              const issuesBefore = decoder.issues.length;
              const event = decoder.decode(raw);
              for (const issue of decoder.issues.slice(issuesBefore)) options.onIssue?.(issue);
              if (event && event.seq >= fromSeq && event.seq > lastDelivered) pending.push(event);
            }
            for (const event of pending) {
              lastDelivered = event.seq;
              yield event;
              if (signal?.aborted) return;
              if (options.stopAtRunFinished && isKnownEvent(event) && event.type === 'run/finished') return;
            }
          }
        } finally {
          fs.closeSync(fd);
        }
      }
      if (signal?.aborted) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        const timer = setTimeout(wakeUp, pollMs);
        const original = wake;
        wake = () => {
          clearTimeout(timer);
          original();
        };
      });
    }
  } finally {
    signal?.removeEventListener('abort', wakeUp);
    watcher?.close();
  }
}

/**
 * The run stores of syntheses running in this extension host, by run folder. A run has one writer: while the
 * pipeline holds a run's store, the explorer appends curation events through that same store instead of trying
 * (and failing) to take the run's writer lock a second time.
 */
import * as path from 'node:path';
import type { RunStore } from '../../core/store';

const stores = new Map<string, RunStore>();
const listeners = new Set<(runDir: string) => void>();

/** Registers a running synthesis's store; the returned function unregisters it (when the run ends). */
export function registerLiveRun(store: RunStore): () => void {
  const runDir = path.resolve(store.runDir);
  stores.set(runDir, store);
  notify(runDir);
  return () => {
    if (stores.get(runDir) !== store) return;
    stores.delete(runDir);
    notify(runDir);
  };
}

/** The writable store of the synthesis running on `runDir` in this process, if any. */
export function liveRunStore(runDir: string): RunStore | undefined {
  const store = stores.get(path.resolve(runDir));
  return store?.writable ? store : undefined;
}

const stoppers = new Map<string, () => void>();

/**
 * Registers how to stop the synthesis that writes `runDir` in this window (from before its folder exists, while the
 * task pool is built); the returned function unregisters it when the synthesis ends.
 */
export function registerRunStopper(runDir: string, stop: () => void): () => void {
  const key = path.resolve(runDir);
  stoppers.set(key, stop);
  notify(key);
  return () => {
    if (stoppers.get(key) !== stop) return;
    stoppers.delete(key);
    notify(key);
  };
}

/** Whether a synthesis in this window writes `runDir` and can be stopped. */
export function canStopRun(runDir: string): boolean {
  return stoppers.has(path.resolve(runDir));
}

/** Run folders that a synthesis in this window writes now. */
export function runningRuns(): string[] {
  return [...stoppers.keys()];
}

/** Stops the synthesis writing `runDir` in this window; false when there is none. */
export function stopRun(runDir: string): boolean {
  const stop = stoppers.get(path.resolve(runDir));
  stop?.();
  return stop !== undefined;
}

/** Called with the run folder whenever a live run starts or ends. */
export function onLiveRunsChanged(listener: (runDir: string) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(runDir: string): void {
  for (const listener of listeners) listener(runDir);
}

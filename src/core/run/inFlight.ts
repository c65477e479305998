/**
 * Tasks in flight: a run's tasks explored up to C at a time in one process, their results committed in run order.
 *
 * Every task explores from the run-start snapshot of the cost model, so its exploration does not depend on which
 * tasks run beside it; what does depend on order is what a task's end does to the run: its delta joins the run's
 * model (floating-point sums, so the order decides the bits), its task/finished is written, and its revision may
 * append a changed question to the run's tasks. Committing in run order — task i only after tasks 0..i-1 — makes
 * all of that what one task after another gives, for any C: the same tasks in the same order, the same model.
 * A task that has finished exploring does not hold its slot while it waits for the tasks before it.
 *
 * Which task starts in a free slot is a matter of wall time only: with an estimate of each task's length, the
 * longest of the tasks not yet started goes first (ties in run order), so that a long task does not start last and
 * run alone at the end (12 tasks over 8 slots are two uneven rounds). Commits stay in run order whatever the start
 * order, so the results are the same; a finished task waits, without its slot, for the tasks before it.
 *
 * When the run stops (cancelled, or a commit says stop) nothing new starts, the tasks still exploring are awaited
 * (they see the abort and end), and the results after the stop are not committed: their events are in the log,
 * so a resume replays those tasks idempotently (taskReplayFilter).
 */

/** How many of a run's tasks are done, exploring, and waiting to start. */
export interface TaskCounts {
  done: number;
  inFlight: number;
  queued: number;
}

export interface InFlightOptions<R> {
  /** Tasks explored at once, ≥ 1. */
  concurrency: number;
  /** The number of tasks now; it may grow while the run goes on (a commit appends). */
  count(): number;
  /** Explores task `index`. */
  explore(index: number): Promise<R>;
  /** Commits task `index`'s result, in index order; false: stop (nothing after it is committed). */
  commit(index: number, result: R): Promise<boolean>;
  /** Start nothing new (the run was cancelled). */
  stopped(): boolean;
  /**
   * An estimate of how long task `index` explores, in any unit (larger: longer); with it and C > 1 the longest
   * task not yet started starts first. Without it (or with C = 1) tasks start in run order.
   */
  estimate?: (index: number) => number;
  /** Called when a task starts exploring and when one is committed. */
  onCounts?: (counts: TaskCounts) => void;
}

/** Explores tasks up to `concurrency` at a time (the longest first, given an estimate) and commits each result in index order. */
export async function exploreInFlight<R>(options: InFlightOptions<R>): Promise<void> {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const settled = new Map<number, R>();
  const running = new Map<number, Promise<void>>();
  const startOrder = concurrency > 1 && options.estimate ? longestFirst(options.estimate) : undefined;
  const started = new Set<number>();
  /** Tasks 0..lowest-1 have all started. */
  let lowest = 0;
  const nextToStart = (): number | undefined => {
    while (started.has(lowest)) lowest++;
    if (lowest >= options.count()) return undefined;
    return startOrder ? startOrder(lowest, options.count(), started) : lowest;
  };
  let head = 0;
  let failed: { error: unknown } | undefined;
  const report = () => options.onCounts?.({ done: head, inFlight: running.size, queued: Math.max(0, options.count() - started.size) });
  try {
    for (;;) {
      // Commit what is ready, in order, before starting more (with C = 1 this is the plain sequential loop).
      let stop = false;
      while (!failed && settled.has(head)) {
        const result = settled.get(head)!;
        settled.delete(head);
        const go = await options.commit(head, result);
        head++;
        report();
        if (!go) {
          stop = true;
          break;
        }
      }
      if (failed || stop) break;
      for (let index = nextToStart(); !options.stopped() && running.size < concurrency && index !== undefined; index = nextToStart()) {
        started.add(index);
        const task = options.explore(index).then(
          (result) => void settled.set(index, result),
          (error: unknown) => void (failed ??= { error }),
        );
        running.set(index, task.finally(() => running.delete(index)));
        report();
      }
      if (running.size === 0) {
        // Nothing exploring: either everything is committed or the run stopped before the rest started.
        if (settled.has(head) && !failed) continue;
        break;
      }
      await Promise.race(running.values());
    }
  } finally {
    // The tasks still exploring end on the abort (or explore to their end when a commit stopped the run).
    await Promise.allSettled([...running.values()]);
  }
  if (failed) throw failed.error;
}

/**
 * The task to start among `from`..`count`-1 not yet started: the longest by the estimate, the earliest of equals.
 * Each estimate is read once (a task's estimate does not change while the run goes on).
 */
function longestFirst(estimate: (index: number) => number): (from: number, count: number, started: ReadonlySet<number>) => number {
  const known: number[] = [];
  const of = (index: number) => (known[index] ??= estimate(index));
  return (from, count, started) => {
    let best = from;
    for (let i = from + 1; i < count; i++) if (!started.has(i) && of(i) > of(best)) best = i;
    return best;
  };
}

/**
 * The run-level limits on model calls, held across tasks: the cap a run was given (`--max-calls`), and the stop
 * when a task's model calls all failed (the provider threw after its own retries: every step an error node whose
 * tool is '(provider)'). Such a task explored nothing; without this the run would go on to the next task and end
 * with "budget", exit 0 and nothing on stderr. Neither stop writes task/finished, so a resume runs the task again.
 */
import type { SearchResult } from './search';

export interface ProviderFailureTally {
  /** Model calls made (one per child). */
  calls: number;
  failed: number;
  /** The last failure's message as the provider gave it (the endpoint's own words included). */
  lastMessage?: string;
}

const PREFIX = 'the provider failed: ';

/** Failed model calls in one search. */
export function providerFailures(result: Pick<SearchResult, 'tree' | 'calls'>): ProviderFailureTally {
  let failed = 0;
  let lastMessage: string | undefined;
  for (const node of result.tree.nodes) {
    const observation = node.step?.observation;
    if (!observation || observation.ok || observation.tool !== '(provider)') continue;
    failed++;
    const message = observation.data.kind === 'error' ? observation.data.message : observation.text;
    lastMessage = message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
  }
  return { calls: result.calls, failed, lastMessage };
}

/** Why a run stopped before its tasks were done (other than a cancel). */
export interface RunStop {
  reason: 'max-calls' | 'model-failure';
  /** One line for a person: what happened and what to do. */
  message: string;
  /** model-failure: the endpoint's error as the provider reported it. */
  providerMessage?: string;
}

export class CallGuard {
  readonly failures: ProviderFailureTally = { calls: 0, failed: 0 };
  stop: RunStop | undefined;

  /** `callsOnLedger`: model calls the run's log already counts (a resumed run). */
  constructor(
    readonly maxCalls: number | undefined,
    private callsOnLedger: number,
  ) {}

  /** Calls the next task may make; undefined without a cap. */
  callsLeft(): number | undefined {
    return this.maxCalls === undefined ? undefined : Math.max(0, this.maxCalls - this.callsOnLedger);
  }

  /** Before a task: whether the cap is already reached (then `stop` says so). */
  exhausted(): boolean {
    if (this.maxCalls === undefined || this.callsOnLedger < this.maxCalls) return false;
    this.stop ??= this.capStop();
    return true;
  }

  /** After a task's search: the run's stop, if the task must not be finished and the run must end. */
  afterTask(taskId: string, result: Pick<SearchResult, 'tree' | 'calls' | 'stopReason'>): RunStop | undefined {
    const tally = providerFailures(result);
    this.failures.calls += tally.calls;
    this.failures.failed += tally.failed;
    if (tally.lastMessage) this.failures.lastMessage = tally.lastMessage;
    this.callsOnLedger += tally.calls;
    if (tally.calls > 0 && tally.failed >= tally.calls) {
      this.stop = {
        reason: 'model-failure',
        message: `every model call of task ${taskId} failed (${tally.failed} of ${tally.calls}); the run stops here (resume it once the endpoint answers): ${tally.lastMessage ?? 'no message'}`,
        providerMessage: tally.lastMessage,
      };
      return this.stop;
    }
    if (result.stopReason === 'calls') {
      this.stop = this.capStop();
      return this.stop;
    }
    return undefined;
  }

  private capStop(): RunStop {
    return { reason: 'max-calls', message: `the cap of ${this.maxCalls} model calls (--max-calls) is reached; the run stops here (resume it with a higher --max-calls to go on)` };
  }
}

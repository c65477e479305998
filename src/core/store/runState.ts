/**
 * A run's state, computed only from its events by one reducer. The store applies it incrementally on every
 * append; `rebuildState` replays a log from scratch; both must agree (a test checks it). The reducer is
 * idempotent where a resume may repeat work: a task, node or trajectory seen again is not duplicated.
 */
import type { TaskSpec } from '../taskpool/types';
import {
  isKnownEvent,
  type LcmDecisionPayload,
  type NodeAddedPayload,
  type RunErrorPayload,
  type EventEnvelope,
  type RunEventOf,
  type RunEventPayloads,
  type RunEventType,
  type RunStartedPayload,
  type StoredRunEvent,
  type TaskFinishedPayload,
  type TaskRevisedPayload,
  type TrajectoryAdmittedPayload,
} from './events';

export type CurationDecision = 'accepted' | 'pruned';

export interface NodeState extends NodeAddedPayload {
  visits?: number;
  value?: number;
  reward?: number;
  addedSeq: number;
  updatedSeq: number;
}

export interface TrajectoryState extends TrajectoryAdmittedPayload {
  admittedSeq: number;
  admittedAt: string;
  /** The latest curation decision, if any (absent = admitted, not yet reviewed). */
  curation?: CurationDecision;
  curationNote?: string;
}

export interface CurationRecord {
  decision: CurationDecision;
  seq: number;
  ts: string;
  note?: string;
}

export interface SpendState {
  totalUsd: number;
  promptTokens: number;
  completionTokens: number;
  calls: number;
  byTaskUsd: Map<string, number>;
}

export interface TaskFinishedState extends TaskFinishedPayload {
  seq: number;
  ts: string;
}

export interface RunState {
  runId?: string;
  started?: RunStartedPayload & { seq: number; ts: string };
  /** 'cancelled': the last word was run/cancelled (its user stopped it; resumable). */
  status: 'empty' | 'running' | 'finished' | 'cancelled';
  lastSeq: number;
  lastTs?: string;
  /** Task pool in the order tasks were added. */
  tasks: Map<string, TaskSpec>;
  /** taskId → nodeId → node. */
  nodes: Map<string, Map<string, NodeState>>;
  nodeCount: number;
  /** trajectoryId → admitted trajectory (with its curation), in admission order. */
  trajectories: Map<string, TrajectoryState>;
  /** trajectoryId → latest decision; kept even for ids not (yet) admitted, e.g. after a partial merge. */
  curation: Map<string, CurationRecord>;
  rejections: Map<string, number>;
  decisions: (LcmDecisionPayload & { seq: number })[];
  spend: SpendState;
  finishedTasks: Map<string, TaskFinishedState>;
  errors: (RunErrorPayload & { seq: number; ts: string })[];
  /** taskId → its one-step revision after exploration (kept, revised or rejected). */
  revisions: Map<string, TaskRevisedPayload & { seq: number; ts: string }>;
  /** Admitted trajectories a revision revoked (re-scored below admission, or their task rejected / superseded). */
  revokedTrajectories: Set<string>;
  resumes: number;
  unknownEvents: number;
  /** Repeated task/node/trajectory additions ignored (expected after a resume re-runs a task). */
  duplicatesIgnored: number;
  /** Updates or decisions naming a node or task never added. */
  danglingReferences: number;
}

export function createRunState(): RunState {
  return {
    status: 'empty',
    lastSeq: 0,
    tasks: new Map(),
    nodes: new Map(),
    nodeCount: 0,
    trajectories: new Map(),
    curation: new Map(),
    rejections: new Map(),
    decisions: [],
    spend: { totalUsd: 0, promptTokens: 0, completionTokens: 0, calls: 0, byTaskUsd: new Map() },
    finishedTasks: new Map(),
    errors: [],
    revisions: new Map(),
    revokedTrajectories: new Set(),
    resumes: 0,
    unknownEvents: 0,
    duplicatesIgnored: 0,
    danglingReferences: 0,
  };
}

/** The payload of a known event (Omit<> would collapse the payloads' index signatures, hence the cast). */
function withoutEnvelope<K extends RunEventType>(event: RunEventOf<K>): RunEventPayloads[K] {
  const { v: _v, seq: _seq, ts: _ts, type: _type, ...payload } = event as EventEnvelope & { type: K };
  return payload as unknown as RunEventPayloads[K];
}

/** Applies one event in place. Unknown events are counted and otherwise skipped. */
export function applyEvent(state: RunState, stored: StoredRunEvent): void {
  state.lastSeq = stored.seq;
  state.lastTs = stored.ts;
  if (!isKnownEvent(stored)) {
    state.unknownEvents++;
    return;
  }
  const event = stored;
  if (state.status === 'empty') state.status = 'running';
  switch (event.type) {
    case 'run/started': {
      state.runId = event.runId;
      state.started = { ...withoutEnvelope(event), seq: event.seq, ts: event.ts };
      break;
    }
    case 'run/resumed':
      state.resumes++;
      // A run continued after run/finished is running again.
      state.status = 'running';
      break;
    case 'task/added': {
      if (state.tasks.has(event.task.id)) state.duplicatesIgnored++;
      else state.tasks.set(event.task.id, event.task);
      break;
    }
    case 'node/added': {
      let taskNodes = state.nodes.get(event.taskId);
      if (!taskNodes) state.nodes.set(event.taskId, (taskNodes = new Map()));
      const existing = taskNodes.get(event.nodeId);
      if (existing) {
        state.duplicatesIgnored++;
        break;
      }
      taskNodes.set(event.nodeId, { ...withoutEnvelope(event), addedSeq: event.seq, updatedSeq: event.seq });
      state.nodeCount++;
      break;
    }
    case 'node/updated': {
      const node = state.nodes.get(event.taskId)?.get(event.nodeId);
      if (!node) {
        state.danglingReferences++;
        break;
      }
      const { taskId: _taskId, nodeId: _nodeId, ...changes } = withoutEnvelope<'node/updated'>(event);
      Object.assign(node, changes, { updatedSeq: event.seq });
      break;
    }
    case 'lcm/decision':
      state.decisions.push({ ...withoutEnvelope(event), seq: event.seq });
      break;
    case 'trajectory/admitted': {
      if (state.trajectories.has(event.trajectoryId)) {
        state.duplicatesIgnored++;
        break;
      }
      const trajectory: TrajectoryState = { ...withoutEnvelope(event), admittedSeq: event.seq, admittedAt: event.ts };
      const decision = state.curation.get(event.trajectoryId);
      if (decision) {
        trajectory.curation = decision.decision;
        if (decision.note !== undefined) trajectory.curationNote = decision.note;
      }
      state.trajectories.set(event.trajectoryId, trajectory);
      break;
    }
    case 'trajectory/rejected':
      state.rejections.set(event.reason, (state.rejections.get(event.reason) ?? 0) + 1);
      break;
    case 'curation/accepted':
    case 'curation/pruned': {
      const decision: CurationDecision = event.type === 'curation/accepted' ? 'accepted' : 'pruned';
      const record: CurationRecord = { decision, seq: event.seq, ts: event.ts };
      if (event.note !== undefined) record.note = event.note;
      state.curation.set(event.trajectoryId, record);
      const trajectory = state.trajectories.get(event.trajectoryId);
      if (trajectory) {
        trajectory.curation = decision;
        if (event.note !== undefined) trajectory.curationNote = event.note;
        else delete trajectory.curationNote;
      }
      break;
    }
    case 'budget/spent': {
      const spend = state.spend;
      spend.totalUsd += event.costUsd;
      spend.promptTokens += event.tokens?.prompt ?? 0;
      spend.completionTokens += event.tokens?.completion ?? 0;
      spend.calls += event.calls ?? 0;
      if (event.taskId !== undefined) {
        spend.byTaskUsd.set(event.taskId, (spend.byTaskUsd.get(event.taskId) ?? 0) + event.costUsd);
      }
      break;
    }
    case 'task/finished':
      if (!state.tasks.has(event.taskId)) state.danglingReferences++;
      state.finishedTasks.set(event.taskId, { ...withoutEnvelope(event), seq: event.seq, ts: event.ts });
      break;
    case 'task/revised': {
      state.revisions.set(event.taskId, { ...withoutEnvelope(event), seq: event.seq, ts: event.ts });
      if (event.task) state.tasks.set(event.taskId, event.task);
      if (event.task?.validation?.status === 'rejected') {
        // Rejected or superseded: its trajectories answer a faulty question, so they leave the admitted set.
        for (const [id, trajectory] of state.trajectories) {
          if (trajectory.taskId !== event.taskId) continue;
          state.trajectories.delete(id);
          state.revokedTrajectories.add(id);
        }
      }
      for (const r of event.rescored ?? []) {
        const trajectory = state.trajectories.get(r.trajectoryId);
        if (!trajectory) continue;
        if (!r.admitted) {
          state.trajectories.delete(r.trajectoryId);
          state.revokedTrajectories.add(r.trajectoryId);
          continue;
        }
        Object.assign(trajectory, { quality: r.quality, verified: r.verified, rubric: r.rubric ?? trajectory.rubric, revisedSeq: event.seq });
      }
      break;
    }
    case 'run/finished':
      state.status = 'finished';
      break;
    case 'run/cancelled':
      state.status = 'cancelled';
      break;
    case 'run/error':
      state.errors.push({ ...withoutEnvelope(event), seq: event.seq, ts: event.ts });
      break;
    default: {
      const unreachable: never = event;
      void unreachable;
    }
  }
}

export function rebuildState(events: Iterable<StoredRunEvent>): RunState {
  const state = createRunState();
  for (const event of events) applyEvent(state, event);
  return state;
}

/** Tasks added but never finished, in the order they were added. */
export function unfinishedTasks(state: RunState): TaskSpec[] {
  return [...state.tasks.values()].filter((task) => !state.finishedTasks.has(task.id));
}

export function admittedTrajectoriesFor(state: RunState, taskId: string): TrajectoryState[] {
  return [...state.trajectories.values()].filter((trajectory) => trajectory.taskId === taskId);
}

/** What a resumer needs: which tasks to (re)run and what is already admitted, so re-running is idempotent. */
export interface ResumePlan {
  /** Unfinished tasks, in pool order. Their partial trees are in `state.nodes`. */
  tasksToRun: TaskSpec[];
  finishedTaskIds: Set<string>;
  /** Trajectory ids already admitted: appending one again is ignored by the reducer, so skip it. */
  admittedTrajectoryIds: Set<string>;
  /** Spend so far per task, so a resumed task's budget counts what it already used. */
  spentUsdByTask: Map<string, number>;
  alreadyFinished: boolean;
}

export function resumePlan(state: RunState): ResumePlan {
  return {
    tasksToRun: unfinishedTasks(state),
    finishedTaskIds: new Set(state.finishedTasks.keys()),
    admittedTrajectoryIds: new Set(state.trajectories.keys()),
    spentUsdByTask: new Map(state.spend.byTaskUsd),
    alreadyFinished: state.status === 'finished',
  };
}

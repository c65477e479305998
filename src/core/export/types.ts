/**
 * What export reads: a plain trajectory (a task, the agent's steps, how it was judged and curated), so the
 * writers, validators and demo library do not depend on how a run folder stores it (`runAdapter.ts` builds these
 * from a run folder; tests build them from real episodes).
 */
import type { AgentStep } from '../agent/types';
import type { DataDocument, EnvironmentProfile } from '../env/types';
import type { TaskSpec } from '../taskpool/types';

/** The curation decision on an admitted trajectory; absent = admitted, not yet reviewed. */
export type ExportCuration = 'accepted' | 'pruned';

/** The verifier's rubric result as the explorer records it (criteria judged mechanically; null = not judged). */
export interface ExportRubricResult {
  score: number | null;
  criteria?: Array<{ id: string; kind?: string; holds: boolean | null; weight?: number; polarity?: string }>;
  [extra: string]: unknown;
}

export interface ExportTrajectory {
  /** Deterministic id, e.g. `taskId/terminalNodeId`. */
  trajectoryId: string;
  runId: string;
  task: TaskSpec;
  /** Root to terminal, in order; the last one normally called final_answer. */
  steps: AgentStep[];
  finalAnswer?: { answer: string; explanation: string };
  /** 0..1 from the verifier. */
  quality: number;
  verified: boolean;
  hasRepair: boolean;
  /** Indexes of steps whose error a later step repaired: the turns an SFT export may weight 0. */
  repairedStepIndexes: number[];
  curation?: ExportCuration;
  rubric?: ExportRubricResult | null;
  /** Every step came from a simulated model. */
  simulated: boolean;
}

/** What the one prompt builder needs besides the trajectory: the schema summary's inputs. */
export interface PromptEnvironment {
  profile: EnvironmentProfile;
  documents: Array<Pick<DataDocument, 'name' | 'title'>>;
}

export type SftFormat = 'openai' | 'hf' | 'sharegpt';
export const SFT_FORMATS: readonly SftFormat[] = ['openai', 'hf', 'sharegpt'];

export type TaskExportFormat = 'kramabench' | 'spider';
export const TASK_EXPORT_FORMATS: readonly TaskExportFormat[] = ['kramabench', 'spider'];

/** A problem one validator rule found in one example. */
export interface ValidationIssue {
  /** The rule's stable name, e.g. `tool-call-answered`. */
  rule: string;
  message: string;
  /** Index of the offending message, when there is one. */
  messageIndex?: number;
}

/**
 * The export's grounding filter (a cleaning filter, on by default): every trajectory is audited against what its
 * conversation shows — the system prompt and question as the export writes them, and each earlier observation —
 * and one whose final answer depends on an ungrounded literal (an invented threshold in the query that produced the
 * answer, or in a query whose result that query read) is left out. The report counts them and lists every
 * ungrounded literal of the trajectories it audited.
 */
import { groundingSourcesFor } from '../agent/grounding';
import { trajectoryGrounding, type TrajectoryGrounding } from '../explorer/verifier';
import type { ExportTrajectory, PromptEnvironment } from './types';

export interface UngroundedLiteralRecord {
  trajectoryId: string;
  taskId: string;
  step: number;
  text: string;
  why: string;
  /** The final answer depends on it (the trajectory is dropped unless ungrounded ones are kept). */
  answerDepends: boolean;
}

export interface GroundingReport {
  /** Whether trajectories whose answer depends on an ungrounded literal were left out. */
  dropUngrounded: boolean;
  audited: number;
  /** Trajectories with at least one ungrounded literal in a step that succeeded. */
  withUngroundedLiterals: number;
  /** Trajectories whose final answer depends on an ungrounded literal. */
  answerDependsOnUngrounded: number;
  dropped: string[];
  /** Every ungrounded literal in a successful step of an audited trajectory. */
  literals: UngroundedLiteralRecord[];
  /** Ungrounded tables and columns in successful steps (failed steps' invented names are repairs, not counted). */
  names: number;
}

export interface GroundingFilterResult {
  kept: ExportTrajectory[];
  audits: Map<string, TrajectoryGrounding>;
  report: GroundingReport;
}

/** Audits each trajectory's conversation and, when `drop`, leaves out those whose answer depends on an ungrounded literal. */
export function filterUngrounded(trajectories: readonly ExportTrajectory[], environment: PromptEnvironment, drop: boolean): GroundingFilterResult {
  const audits = new Map<string, TrajectoryGrounding>();
  const literals: UngroundedLiteralRecord[] = [];
  const dropped: string[] = [];
  const kept: ExportTrajectory[] = [];
  let withLiterals = 0;
  let depending = 0;
  let names = 0;
  for (const t of trajectories) {
    const sources = groundingSourcesFor(t.task.question, environment.profile, environment.documents);
    const audit = trajectoryGrounding(t.steps, sources) as TrajectoryGrounding;
    audits.set(t.trajectoryId, audit);
    const depends = new Set(audit.answerDependsOn.map((u) => `${u.step}\u0000${u.text}`));
    let any = false;
    for (const s of audit.steps) {
      if (!s.ok) continue;
      for (const u of s.ungrounded) {
        if (u.kind !== 'literal') {
          names++;
          continue;
        }
        any = true;
        literals.push({ trajectoryId: t.trajectoryId, taskId: t.task.id, step: s.step, text: u.text, why: u.why, answerDepends: depends.has(`${s.step}\u0000${u.text}`) });
      }
    }
    if (any) withLiterals++;
    if (audit.answerDependsOn.length > 0) {
      depending++;
      if (drop) {
        dropped.push(t.trajectoryId);
        continue;
      }
    }
    kept.push(t);
  }
  return {
    kept,
    audits,
    report: { dropUngrounded: drop, audited: trajectories.length, withUngroundedLiterals: withLiterals, answerDependsOnUngrounded: depending, dropped, literals, names },
  };
}

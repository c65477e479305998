/**
 * Runs the simulated models over tasks and measures them: mistake rate, repair success, answer accuracy and
 * cost per model × difficulty. What `toffee sim-stats` prints, and what the tests check the simulation against.
 */
import { runEpisode } from '../agent/episode';
import type { ToolContext } from '../agent/tools';
import type { AgentStep, ContextLength } from '../agent/types';
import { matchesAnswer } from '../taskpool/answer';
import type { TaskSpec } from '../taskpool/types';
import type { ReasoningEffort } from '../llm/types';
import { diagnosisHunks, diffCode } from './callDiff';
import { SIM_MODELS } from './models';
import { CATEGORY_OF, type ErrorCategory } from './taxonomy';
import { SimDecision, createSimulatedProvider, simulationScript } from './simulatedProvider';

export interface SimStatsCell {
  model: string;
  difficulty: 'easy' | 'medium' | 'hard' | 'all';
  episodes: number;
  steps: number;
  /** Steps where the model made a seeded mistake (failing or silent). */
  mistakenSteps: number;
  mistakeRate: number;
  /** Steps whose observation was an error. */
  errorSteps: number;
  /** Error steps followed by a successful call of the same tool. */
  repairs: number;
  repairSuccess: number;
  correctAnswers: number;
  accuracy: number;
  meanCostUsd: number;
  meanSteps: number;
  mistakeKinds: Record<string, number>;
  /** Mistakes per category of the taxonomy (premature answers apart). */
  mistakeCategories: Partial<Record<ErrorCategory, number>>;
  /** Repaired steps, and those whose diagnosis names exactly the diff between the failed and the repaired call. */
  repairedSteps: number;
  agreeingDiagnoses: number;
  /** Calls that wrote a literal nothing shown to the model held. */
  unseenLiteralCalls: number;
  /** A few of those literals, with the task, for a reader to check. */
  unseenExamples: string[];
  /** Episodes of document tasks, and those that read the task's document before their first evidence query. */
  documentEpisodes: number;
  documentReadFirst: number;
}

/** The code of a step's call (run_sql query, run_python code, describe_table's table). */
export function stepCode(step: AgentStep): string | undefined {
  if (!step.toolCall) return undefined;
  try {
    const args = JSON.parse(step.toolCall.arguments) as Record<string, unknown>;
    const code = args.query ?? args.code ?? args.table;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each repaired step of a trajectory (a call after a failed or empty one, whose thought carries a "Fix:"
 * diagnosis) with whether the diagnosis names exactly the hunks that separate the two calls.
 */
export function repairAgreement(steps: readonly AgentStep[]): Array<{ index: number; agrees: boolean; named: string; diff: string }> {
  const out: Array<{ index: number; agrees: boolean; named: string; diff: string }> = [];
  for (let i = 1; i < steps.length; i++) {
    const named = diagnosisHunks(steps[i].thought);
    if (!named) continue;
    const failed = stepCode(steps[i - 1]);
    const repaired = stepCode(steps[i]);
    if (failed === undefined || repaired === undefined) continue;
    const diff = diffCode(failed, repaired);
    const key = (hs: Array<{ before: string; after: string }>) => JSON.stringify(hs.map((h) => [h.before, h.after]));
    out.push({ index: i, agrees: key(named) === key(diff), named: key(named), diff: key(diff) });
  }
  return out;
}

function readDocumentFirst(task: TaskSpec, steps: readonly AgentStep[]): boolean {
  const docs = new Set((task.documents ?? []).map((d) => d.document.toLowerCase()));
  for (const step of steps) {
    const name = step.toolCall?.name;
    if (name === 'read_document' && step.observation.ok) {
      const args = JSON.parse(step.toolCall!.arguments) as { name?: string };
      if (docs.has(String(args.name).toLowerCase())) return true;
    }
    if ((name === 'run_sql' || name === 'run_python') && !/^SELECT DISTINCT \S+ FROM \S+ ORDER BY 1 LIMIT 100$/.test(stepCode(step) ?? '')) return false;
  }
  return false;
}

export interface SimStatsOptions {
  tasks: TaskSpec[];
  toolContext: ToolContext;
  seeds: number[];
  models?: string[];
  contextLength?: ContextLength;
  reasoningEffort?: ReasoningEffort;
  maxSteps?: number;
  signal?: AbortSignal;
  onEpisode?: (done: number, total: number) => void;
}

export interface SimStatsReport {
  cells: SimStatsCell[];
  tasks: number;
  seeds: number[];
}

interface Accumulator {
  episodes: number;
  steps: number;
  mistakenSteps: number;
  errorSteps: number;
  repairs: number;
  repairsTried: number;
  correct: number;
  cost: number;
  kinds: Record<string, number>;
  categories: Partial<Record<ErrorCategory, number>>;
  repairedSteps: number;
  agreeing: number;
  unseen: number;
  unseenExamples: string[];
  documentEpisodes: number;
  documentReadFirst: number;
}

const empty = (): Accumulator => ({ episodes: 0, steps: 0, mistakenSteps: 0, errorSteps: 0, repairs: 0, repairsTried: 0, correct: 0, cost: 0, kinds: {}, categories: {}, repairedSteps: 0, agreeing: 0, unseen: 0, unseenExamples: [], documentEpisodes: 0, documentReadFirst: 0 });

function repairsIn(steps: AgentStep[]): { tried: number; succeeded: number } {
  let tried = 0;
  let succeeded = 0;
  for (let i = 0; i + 1 < steps.length; i++) {
    if (steps[i].observation.ok) continue;
    tried++;
    const next = steps[i + 1];
    if (next.observation.ok && next.toolCall?.name === steps[i].toolCall?.name) succeeded++;
  }
  return { tried, succeeded };
}

export async function runSimStats(options: SimStatsOptions): Promise<SimStatsReport> {
  const models = options.models ?? SIM_MODELS.map((m) => m.spec.id);
  const byKey = new Map<string, Accumulator>();
  const acc = (model: string, difficulty: string) => {
    const key = `${model}|${difficulty}`;
    let a = byKey.get(key);
    if (!a) byKey.set(key, (a = empty()));
    return a;
  };
  const total = models.length * options.tasks.length * options.seeds.length;
  let done = 0;
  for (const model of models) {
    for (const task of options.tasks) {
      for (const seed of options.seeds) {
        const decisions: SimDecision[] = [];
        const provider = createSimulatedProvider({ script: simulationScript(task, seed), onDecision: (d) => decisions.push(d) });
        const result = await runEpisode({
          task: { question: task.question, taskId: task.id },
          config: { provider, model, contextLength: options.contextLength, reasoningEffort: options.reasoningEffort, simulated: true },
          toolContext: options.toolContext,
          maxSteps: options.maxSteps ?? 14,
          signal: options.signal,
        });
        if (result.stopReason === 'aborted') throw new Error('sim-stats was cancelled');
        const correct = result.state.finalAnswer !== undefined && matchesAnswer(task.answer, result.state.finalAnswer.answer);
        const repairs = repairsIn(result.steps);
        const agreement = repairAgreement(result.steps);
        const documentTask = (task.documents ?? []).length > 0;
        const readFirst = documentTask && readDocumentFirst(task, result.steps);
        for (const a of [acc(model, task.difficulty.level), acc(model, 'all')]) {
          a.episodes++;
          a.steps += result.steps.length;
          a.mistakenSteps += decisions.filter((d) => d.mistake).length;
          for (const d of decisions) {
            if (d.mistake) a.kinds[d.mistake] = (a.kinds[d.mistake] ?? 0) + 1;
            const category = d.mistake ? CATEGORY_OF[d.mistake] : undefined;
            if (category && category !== 'answer') a.categories[category] = (a.categories[category] ?? 0) + 1;
            if (d.unseenLiterals?.length) {
              a.unseen++;
              if (a.unseenExamples.length < 5) a.unseenExamples.push(`${task.id}: ${d.unseenLiterals.join(', ')}`);
            }
          }
          a.repairedSteps += agreement.length;
          a.agreeing += agreement.filter((r) => r.agrees).length;
          if (documentTask) a.documentEpisodes++;
          if (readFirst) a.documentReadFirst++;
          a.errorSteps += result.totals.errorSteps;
          a.repairsTried += repairs.tried;
          a.repairs += repairs.succeeded;
          a.correct += correct ? 1 : 0;
          a.cost += result.totals.costUsd;
        }
        options.onEpisode?.(++done, total);
      }
    }
  }
  const cells: SimStatsCell[] = [];
  for (const model of models) {
    for (const difficulty of ['easy', 'medium', 'hard', 'all'] as const) {
      const a = byKey.get(`${model}|${difficulty}`);
      if (!a) continue;
      cells.push({
        model,
        difficulty,
        episodes: a.episodes,
        steps: a.steps,
        mistakenSteps: a.mistakenSteps,
        mistakeRate: a.steps ? a.mistakenSteps / a.steps : 0,
        errorSteps: a.errorSteps,
        repairs: a.repairsTried,
        repairSuccess: a.repairsTried ? a.repairs / a.repairsTried : 0,
        correctAnswers: a.correct,
        accuracy: a.episodes ? a.correct / a.episodes : 0,
        meanCostUsd: a.episodes ? a.cost / a.episodes : 0,
        meanSteps: a.episodes ? a.steps / a.episodes : 0,
        mistakeKinds: a.kinds,
        mistakeCategories: a.categories,
        repairedSteps: a.repairedSteps,
        agreeingDiagnoses: a.agreeing,
        unseenLiteralCalls: a.unseen,
        unseenExamples: a.unseenExamples,
        documentEpisodes: a.documentEpisodes,
        documentReadFirst: a.documentReadFirst,
      });
    }
  }
  return { cells, tasks: options.tasks.length, seeds: options.seeds };
}

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
import { SIM_MODELS } from './models';
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
}

const empty = (): Accumulator => ({ episodes: 0, steps: 0, mistakenSteps: 0, errorSteps: 0, repairs: 0, repairsTried: 0, correct: 0, cost: 0, kinds: {} });

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
        for (const a of [acc(model, task.difficulty.level), acc(model, 'all')]) {
          a.episodes++;
          a.steps += result.steps.length;
          a.mistakenSteps += decisions.filter((d) => d.mistake).length;
          for (const d of decisions) if (d.mistake) a.kinds[d.mistake] = (a.kinds[d.mistake] ?? 0) + 1;
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
      });
    }
  }
  return { cells, tasks: options.tasks.length, seeds: options.seeds };
}

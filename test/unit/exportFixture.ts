/**
 * Real trajectories for the export tests: the retail sample's starter tasks, played by the offline simulated
 * models (seeded mistakes and repairs included) through the agent's own episode loop.
 */
import * as path from 'node:path';
import { runEpisode } from '../../src/core/agent/episode';
import { AgentSession, openAgentSession } from '../../src/core/agent/session';
import { createSimulatedProvider, simulationScript } from '../../src/core/sim/simulatedProvider';
import { repairedErrorIndices } from '../../src/core/agent/steps';
import type { ExportTrajectory, PromptEnvironment } from '../../src/core/export/types';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { buildStarterTasks } from '../../src/core/taskpool/families/index';
import type { TaskSpec } from '../../src/core/taskpool/types';

export const RETAIL_SAMPLE = path.resolve(__dirname, '../../../media/samples/retail');

export interface EpisodeFixture {
  session: AgentSession;
  tasks: TaskSpec[];
  trajectories: ExportTrajectory[];
  environment: PromptEnvironment;
  close(): Promise<void>;
}

/** Plays every starter task of the folder (default: the retail sample) with each model and seed; keeps the episodes that reached a final answer. */
export async function playRetailEpisodes(options: { folder?: string; models?: string[]; seeds?: number[]; runId?: string } = {}): Promise<EpisodeFixture> {
  const session = await openAgentSession(options.folder ?? RETAIL_SAMPLE);
  try {
    const tasks = await buildStarterTasks(session.env, { sql: session.sql, python: session.python });
    const provider = createSimulatedProvider();
    const trajectories: ExportTrajectory[] = [];
    for (const task of tasks) {
      for (const model of options.models ?? ['sim-small', 'sim-large']) {
        for (const seed of options.seeds ?? [1, 2]) {
          const result = await runEpisode({
            task: { question: task.question, taskId: task.id },
            config: { provider: provider.withScript(simulationScript(task, seed)), model },
            toolContext: session.toolContext,
            maxSteps: 14,
          });
          const final = result.state.finalAnswer;
          if (result.stopReason !== 'final_answer' || !final) continue;
          const repaired = repairedErrorIndices(result.steps);
          const verified = matchesAnswer(task.answer, final.answer);
          const errors = result.steps.filter((s) => !s.observation.ok).length;
          trajectories.push({
            trajectoryId: `${task.id}/${model}-${seed}`,
            runId: options.runId ?? 'episodes',
            task,
            steps: result.steps,
            finalAnswer: final,
            quality: Math.round(((verified ? 0.6 : 0) + 0.4 * (1 - errors / result.steps.length)) * 1000) / 1000,
            verified,
            hasRepair: repaired.length > 0,
            repairedStepIndexes: repaired,
            simulated: result.steps.every((s) => s.config.simulated),
          });
        }
      }
    }
    return {
      session,
      tasks,
      trajectories,
      environment: { profile: session.env.profile, documents: session.env.documents },
      close: () => session.dispose(),
    };
  } catch (error) {
    await session.dispose();
    throw error;
  }
}

let shared: Promise<EpisodeFixture> | undefined;

/**
 * The default episodes, played once per mocha process and shared by the export test files (they take ~20 s).
 * A root-level `after` hook (registered when a spec file loads this module) stops the sandboxes at the end.
 */
export function acquireRetailEpisodes(): Promise<EpisodeFixture> {
  shared ??= playRetailEpisodes();
  return shared;
}

after(async () => {
  const pending = shared;
  shared = undefined;
  await (await pending?.catch(() => undefined))?.close();
});

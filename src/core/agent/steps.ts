/** Reading a path of steps: the code a step ran, the errors a path repaired, the answer it gave. */
import type { AgentStep } from './types';

/** The code a step ran (SQL or Python), or undefined for discovery and answers. */
export function stepCode(step: AgentStep): string | undefined {
  const args = step.observation.args ?? parseArgs(step.toolCall?.arguments);
  if (step.toolCall?.name === 'run_sql' && typeof args?.query === 'string') return args.query;
  if (step.toolCall?.name === 'run_python' && typeof args?.code === 'string') return args.code;
  return undefined;
}

/** A tool call's JSON arguments as an object, or undefined when they are not one. */
export function parseArgs(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Positions of the failed steps a path repaired (error → diagnosis → repair): the next step succeeds with the same tool. */
export function repairedErrorIndices(steps: readonly AgentStep[]): number[] {
  const repaired: number[] = [];
  steps.forEach((step, i) => {
    const next = steps[i + 1];
    if (!step.observation.ok && next && next.observation.ok && next.toolCall?.name === step.toolCall?.name) repaired.push(i);
  });
  return repaired;
}

/** The last successful final answer on a path, or undefined. */
export function finalAnswerOf(steps: readonly AgentStep[]): { answer: string; explanation: string } | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const data = steps[i].observation.data;
    if (steps[i].observation.ok && data.kind === 'final') return { answer: data.answer, explanation: data.explanation };
  }
  return undefined;
}

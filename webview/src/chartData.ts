/** The budget chart's data, without the DOM (unit-tested). */
import type { RunView, TaskView } from '../../src/shared/runView';

export interface QualityPoint {
  usd: number;
  quality: number;
}

/**
 * The task's best quality as a step function of its spend. An expansion's spend is recorded before the
 * trajectories it admitted (the explorer emits `budget/spent`, then `trajectory/admitted`), so the best quality a
 * budget point carries is the one from before that expansion; the rise belongs at the expansion's own spend.
 */
export function qualitySteps(view: RunView, task: TaskView): QualityPoint[] {
  const spends = view.budget.filter((p) => p.taskId === task.id && p.taskUsd !== undefined);
  const steps: QualityPoint[] = [{ usd: 0, quality: 0 }];
  let quality = 0;
  spends.forEach((point, i) => {
    const after = (i + 1 < spends.length ? spends[i + 1].bestQuality : task.bestQuality) ?? 0;
    if (after !== quality) {
      steps.push({ usd: point.taskUsd!, quality });
      steps.push({ usd: point.taskUsd!, quality: after });
      quality = after;
    }
  });
  const end = Math.max(task.spentUsd, steps[steps.length - 1].usd);
  if (end > steps[steps.length - 1].usd || steps.length === 1) steps.push({ usd: end, quality });
  return steps;
}

/** Up to `count` round tick values from 0 to max (1, 2 or 5 times a power of ten apart). */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let value = 0; value <= max + step * 1e-9; value += step) ticks.push(Number(value.toPrecision(12)));
  return ticks;
}


/**
 * Best quality against spend for one task: a step line from $0 (no verified trajectory yet, quality 0) through
 * each expansion's spend to what the task has spent now, the task's budget limit as a dashed line, and ticks on
 * both axes. A small SVG, every label a text node.
 */
import { memo } from 'react';
import type { RunView, TaskView } from '../../src/shared/runView';
import { niceTicks, qualitySteps } from './chartData';

const WIDTH = 340;
const HEIGHT = 150;
const LEFT = 34;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 30;

function usdTick(value: number): string {
  if (value === 0) return '$0';
  return value < 0.01 ? `$${value.toFixed(3)}` : `$${value.toFixed(2)}`;
}

/** `revision` changes whenever the view's budget does (the view is updated in place). */
export const BudgetChart = memo(function BudgetChart({ view, task }: { view: RunView; task: TaskView | undefined; revision: number }) {
  if (!task) return <p className="muted small">No task yet.</p>;
  if (task.spentUsd <= 0) return <p className="muted small">Nothing spent on this task yet.</p>;
  const limit = view.budgetPerTaskUsd;
  const steps = qualitySteps(view, task);
  const xMax = Math.max(limit ?? 0, task.spentUsd) * 1.02;
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const x = (usd: number) => LEFT + (usd / xMax) * plotW;
  const y = (quality: number) => TOP + (1 - quality) * plotH;
  const line = steps.map((p) => `${x(p.usd).toFixed(1)},${y(p.quality).toFixed(1)}`).join(' ');
  const xTicks = niceTicks(xMax, 4).filter((t) => t <= xMax);
  const yTicks = [0, 0.25, 0.5, 0.75, 1];
  const best = task.bestQuality;
  return (
    <figure className="budget-chart" aria-label={`Best quality against spend for this task: ${best === undefined ? 'no verified trajectory yet' : `best ${best.toFixed(2)}`}, $${task.spentUsd.toFixed(4)} spent${limit ? ` of a $${limit} budget` : ''}`}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" data-testid="budget-chart">
        {yTicks.map((t) => (
          <g key={`y${t}`}>
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(t)} y2={y(t)} className="grid" />
            <text x={LEFT - 4} y={y(t) + 3} className="chart-label" textAnchor="end">{t.toFixed(t === 0 || t === 1 ? 0 : 2)}</text>
          </g>
        ))}
        {xTicks.map((t) => (
          <g key={`x${t}`}>
            <line x1={x(t)} x2={x(t)} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM + 4} className="axis" />
            <text x={x(t)} y={HEIGHT - BOTTOM + 13} className="chart-label" textAnchor="middle">{usdTick(t)}</text>
          </g>
        ))}
        <line x1={LEFT} y1={HEIGHT - BOTTOM} x2={WIDTH - RIGHT} y2={HEIGHT - BOTTOM} className="axis" />
        <line x1={LEFT} y1={TOP} x2={LEFT} y2={HEIGHT - BOTTOM} className="axis" />
        {limit ? (
          <g data-testid="budget-limit">
            <line x1={x(limit)} x2={x(limit)} y1={TOP} y2={HEIGHT - BOTTOM} className="line-limit" />
            <text x={x(limit) - 3} y={TOP + 9} className="chart-label" textAnchor="end">{`budget ${usdTick(limit)}`}</text>
          </g>
        ) : null}
        <polyline points={line} className="line-quality" fill="none" data-points={steps.length} />
        <circle cx={x(task.spentUsd)} cy={y(steps[steps.length - 1].quality)} r={2.5} className="dot-now" />
        <text x={LEFT + plotW / 2} y={HEIGHT - 4} className="chart-label" textAnchor="middle">spend on this task (USD)</text>
        <text x={10} y={TOP + plotH / 2} className="chart-label" textAnchor="middle" transform={`rotate(-90 10 ${TOP + plotH / 2})`}>best quality</text>
      </svg>
      <figcaption className="small muted">
        {`$${task.spentUsd.toFixed(4)} spent${limit ? ` of $${limit} per task` : ''} · best quality ${best === undefined ? '— (none verified yet)' : best.toFixed(2)}`}
      </figcaption>
    </figure>
  );
});

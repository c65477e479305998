/** Spend against best quality over time for one task (or the whole run): a small SVG, text as text nodes. */
import { memo } from 'react';
import type { BudgetPoint, RunView } from '../../src/shared/runView';

const WIDTH = 320;
const HEIGHT = 110;
const PAD = 24;

/** At most this many points are drawn (evenly spaced, the last one kept): a long run has one per model call. */
const MAX_POINTS = 400;

function thin(points: BudgetPoint[]): BudgetPoint[] {
  if (points.length <= MAX_POINTS) return points;
  const step = (points.length - 1) / (MAX_POINTS - 1);
  return Array.from({ length: MAX_POINTS }, (_, i) => points[Math.round(i * step)]);
}

/** `revision` changes whenever the view's budget does (the view is updated in place). */
export const BudgetChart = memo(function BudgetChart({ view, taskId }: { view: RunView; taskId: string | undefined; revision: number }) {
  const recorded = view.budget.filter((p) => !taskId || p.taskId === taskId);
  const points = thin(recorded);
  if (points.length < 2) return <p className="muted small">Not enough spend recorded yet for a chart.</p>;
  const spendOf = (p: (typeof points)[number]) => (taskId ? p.taskUsd ?? 0 : p.totalUsd);
  const maxSpend = Math.max(...points.map(spendOf), 1e-9);
  const x = (i: number) => PAD + (i / (points.length - 1)) * (WIDTH - 2 * PAD);
  const y = (fraction: number) => HEIGHT - PAD - fraction * (HEIGHT - 2 * PAD);
  const spendLine = points.map((p, i) => `${x(i).toFixed(1)},${y(spendOf(p) / maxSpend).toFixed(1)}`).join(' ');
  const qualityPoints = points.map((p, i) => ({ i, q: p.bestQuality })).filter((p) => p.q !== undefined);
  const qualityLine = qualityPoints.map((p) => `${x(p.i).toFixed(1)},${y(p.q!).toFixed(1)}`).join(' ');
  return (
    <figure className="budget-chart" aria-label="Spend and best quality over time">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img">
        <line x1={PAD} y1={HEIGHT - PAD} x2={WIDTH - PAD} y2={HEIGHT - PAD} className="axis" />
        <line x1={PAD} y1={PAD} x2={PAD} y2={HEIGHT - PAD} className="axis" />
        <polyline points={spendLine} className="line-spend" fill="none" />
        {qualityLine ? <polyline points={qualityLine} className="line-quality" fill="none" /> : null}
        <text x={PAD} y={PAD - 8} className="chart-label">{`$${maxSpend.toFixed(4)}`}</text>
        <text x={WIDTH - PAD} y={PAD - 8} className="chart-label" textAnchor="end">quality 1.0</text>
        <text x={WIDTH / 2} y={HEIGHT - 6} className="chart-label" textAnchor="middle">{`${recorded.length} spend events`}</text>
      </svg>
      <figcaption className="small">
        <span className="legend-spend">■ spend</span> <span className="legend-quality">■ best quality</span>
      </figcaption>
    </figure>
  );
});

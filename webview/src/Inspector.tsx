/**
 * The node inspector, with the step-through player on top when a trajectory is being played (so the step and what
 * it did stay together as the user steps). Every value is rendered as text (React text nodes), never as HTML.
 */
import { VscodeButton } from '@vscode-elements/react-elements';
import type { DecisionView, NodeView, TaskView, TrajectoryView } from '../../src/shared/runView';
import { displayStatus } from '../../src/shared/runView';
import { armLabel, armShortLabel, formatUsd, stepLabel } from './format';
import { CodeBlock } from './highlight';

function formatNumber(value: number | undefined, digits = 3): string {
  return value === undefined ? '—' : Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

export interface PlayerProps {
  trajectory: TrajectoryView;
  /** Index into the trajectory's node path: 0 is the question (the root), 1… are the steps. */
  step: number;
  onStep: (step: number) => void;
  onClose: () => void;
}

/** Previous / next through a trajectory's steps; "Step i / n" counts tool calls (the edges of the node path). */
function Player({ trajectory, step, onStep, onClose, task }: PlayerProps & { task: TaskView }) {
  const steps = trajectory.nodePath.length - 1;
  const node = task.nodes[trajectory.nodePath[step]];
  return (
    <div className="player" aria-label="Step-through player" data-testid="player">
      <div className="player-head">
        <strong>Trajectory</strong>
        <span className="muted small">{`quality ${trajectory.quality.toFixed(2)} · ${steps} steps${trajectory.hasRepair ? ' · with a repair' : ''}`}</span>
        <span className="spacer" />
        <VscodeButton secondary onClick={onClose} aria-label="Close the player">Close</VscodeButton>
      </div>
      <div className="player-controls">
        <VscodeButton secondary data-action="previous-step" disabled={step <= 0} onClick={() => onStep(step - 1)}>
          Previous
        </VscodeButton>
        <span data-testid="player-step">{step === 0 ? `Start / ${steps}` : `Step ${step} / ${steps}`}</span>
        <VscodeButton secondary data-action="next-step" disabled={step >= steps} onClick={() => onStep(step + 1)}>
          Next
        </VscodeButton>
      </div>
      <div className="step-label" data-testid="player-label">{stepLabel(node)}</div>
    </div>
  );
}

function DecisionTable({ decision }: { decision: DecisionView }) {
  const chosen = new Set(decision.arms);
  // The ranked candidates, and any chosen arm ranked below them.
  const listed = new Set(decision.candidates.map((c) => c.armId));
  const rows = [
    ...decision.candidates,
    ...decision.arms.flatMap((armId, i) => (listed.has(armId) ? [] : [{ armId, mu: decision.mu[i], sigma: decision.sigma[i], costUsd: undefined, score: undefined, excluded: undefined }])),
  ];
  // An arm the model never updated has μ = 0 and the prior's σ (the largest at this node): LinUCB tries the most
  // uncertain arms first, so on a fresh cost model every chosen arm reads μ = 0 until it has been rewarded.
  const priorSigma = Math.max(...rows.map((r) => r.sigma ?? 0));
  const untried = (row: { mu?: number; sigma?: number }) => row.mu === 0 && row.sigma === priorSigma;
  return (
    <>
      <h4>Cost model decision: {decision.k} config{decision.k === 1 ? '' : 's'} expanded</h4>
      {decision.kReason ? <div className="muted small">{readableArms(decision.kReason)}</div> : null}
      <div className="decision-wrap">
        <table className="decision" data-testid="decision-table">
          <thead>
            <tr>
              <th scope="col" title="model · context · reasoning effort · operator">config</th>
              <th scope="col" title="predicted reward θᵀx">μ</th>
              <th scope="col" title="exploration bonus">σ</th>
              <th scope="col" title="expected cost of one step">cost</th>
              <th scope="col" title="μ + σ − cost term">score</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.armId} className={chosen.has(row.armId) ? 'chosen' : undefined} title={row.armId}>
                <td>
                  {chosen.has(row.armId) ? <span aria-label="chosen">✓ </span> : null}
                  {armShortLabel(row.armId)}
                  {row.excluded ? <span className="muted small">{` (${row.excluded})`}</span> : null}
                </td>
                <td>{untried(row) ? <span title="no updates yet: LinUCB starts every arm at 0">0 · untried</span> : formatNumber(row.mu)}</td>
                <td>{formatNumber(row.sigma)}</td>
                <td>{row.costUsd === undefined ? '—' : formatUsd(row.costUsd)}</td>
                <td>{formatNumber(row.score)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** Arm ids inside a sentence (the cost model's K reason) in words. */
function readableArms(text: string): string {
  return text.replace(/[\w.-]+\/[^|\s]+\|[^|\s]+\|[^|\s]+\|[\w-]+/g, (id) => armLabel(id));
}

export function Inspector({ task, node, player, trajectoryNames, latest }: { task: TaskView | undefined; node: NodeView | undefined; player?: PlayerProps; trajectoryNames: (id: string) => string; latest?: boolean }) {
  const playerView = player && task ? <Player {...player} task={task} /> : null;
  if (!task || !node) {
    return (
      <section className="inspector" aria-label="Node inspector">
        {playerView}
        <p className="muted">Select a node in the tree, or a trajectory below, to inspect it.</p>
      </section>
    );
  }
  const status = displayStatus(node);
  return (
    <section className="inspector" aria-label={`Node ${node.id}`} data-testid="inspector">
      {playerView}
      {latest ? <div className="muted small" data-testid="latest-step">The latest step of the task being explored (click a node to hold one)</div> : null}
      <header className="inspector-head">
        <span className={`status-chip status-${status}`}>{status}</span>
        <strong>{stepLabel(node)}</strong>
      </header>
      <div className="muted small" title={node.configLabel}>
        {`node ${node.id} · depth ${node.depth}`}
        {node.armId ? ` · ${armLabel(node.armId)}${node.simulated ? ' · simulated' : ''}` : node.configLabel ? ` · ${node.configLabel}` : ''}
      </div>
      {node.thought ? (
        <>
          <h4>Thought</h4>
          <p className="thought" data-testid="thought">{node.thought}</p>
        </>
      ) : null}
      {node.toolCall ? (
        <>
          <h4>Tool call: {node.toolCall.name}</h4>
          <CodeBlock code={node.toolCall.code} language={node.toolCall.language} />
        </>
      ) : null}
      {node.observation ? (
        <>
          <h4>Observation</h4>
          {node.observation.kind === 'table' ? (
            <div className="table-wrap">
              <table className="observation" data-testid="observation-table">
                <thead>
                  <tr>
                    {node.observation.columns.map((column, i) => (
                      <th key={i} scope="col">{column}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {node.observation.rows.map((row, r) => (
                    <tr key={r}>
                      {row.map((cell, c) => (
                        <td key={c}>{cell}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {node.observation.truncated ? <div className="muted small">(rows truncated)</div> : null}
            </div>
          ) : (
            <pre className={node.observation.isError ? 'observation-text error-text' : 'observation-text'}>{node.observation.text}</pre>
          )}
        </>
      ) : null}
      <h4>Search</h4>
      <dl className="facts">
        <dt>visits</dt>
        <dd>{node.visits}</dd>
        <dt>value</dt>
        <dd>{formatNumber(node.value)}</dd>
        <dt>reward</dt>
        <dd>{formatNumber(node.reward)}</dd>
        <dt>cost</dt>
        <dd>{formatUsd(node.costUsd)}</dd>
        <dt>tokens</dt>
        <dd>{node.tokens ? `${node.tokens.prompt ?? '?'} in / ${node.tokens.completion ?? '?'} out` : '—'}</dd>
        <dt>latency</dt>
        <dd>{node.latencyMs === undefined ? '—' : `${Math.round(node.latencyMs)} ms`}</dd>
      </dl>
      {node.decision ? <DecisionTable decision={node.decision} /> : null}
      {node.trajectoryIds.length ? <div className="muted small">On {node.trajectoryIds.map(trajectoryNames).join(', ')}</div> : null}
    </section>
  );
}

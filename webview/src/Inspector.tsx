/** The node inspector: every value rendered as text (React text nodes), never as HTML. */
import type { NodeView, TaskView } from '../../src/shared/runView';
import { displayStatus } from '../../src/shared/runView';
import { CodeBlock } from './highlight';

function formatUsd(value: number | undefined): string {
  return value === undefined ? '—' : `$${value.toFixed(value < 0.01 ? 5 : 3)}`;
}

function formatNumber(value: number | undefined, digits = 3): string {
  return value === undefined ? '—' : Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

export function Inspector({ task, node }: { task: TaskView | undefined; node: NodeView | undefined }) {
  if (!task || !node) {
    return (
      <section className="inspector" aria-label="Node inspector">
        <p className="muted">Select a node in the tree to inspect it.</p>
      </section>
    );
  }
  const status = displayStatus(node);
  return (
    <section className="inspector" aria-label={`Node ${node.id}`} data-testid="inspector">
      <header className="inspector-head">
        <span className={`status-chip status-${status}`}>{status}</span>
        <strong>{node.id}</strong>
        {node.model ? <span className="badge" title={node.configLabel}>{node.model}</span> : null}
        <span className="muted">depth {node.depth}</span>
      </header>
      {node.configLabel ? <div className="muted small">{node.configLabel}</div> : null}
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
      {node.decision ? (
        <>
          <h4>Cost model decision (K = {node.decision.k})</h4>
          <table className="decision">
            <thead>
              <tr>
                <th scope="col">arm</th>
                <th scope="col">μ</th>
                <th scope="col">σ</th>
              </tr>
            </thead>
            <tbody>
              {(node.decision.arms.length ? node.decision.arms : node.decision.mu.map((_, i) => `arm ${i + 1}`)).map((arm, i) => (
                <tr key={i}>
                  <td>{arm}</td>
                  <td>{formatNumber(node.decision!.mu[i])}</td>
                  <td>{formatNumber(node.decision!.sigma[i])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {node.trajectoryIds.length ? <div className="muted small">On trajectories: {node.trajectoryIds.join(', ')}</div> : null}
    </section>
  );
}

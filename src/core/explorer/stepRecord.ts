/**
 * The step record: how the explorer writes a step into its events (`node/added.step`, `trajectory/admitted.steps`)
 * and how a step is read back from a run (export, a revision after a crash). The store keeps each observation's
 * rendered text, not its structured data, so `observation.data` is rebuilt from the text (tables parsed back with
 * the renderer's own parser). Records are read defensively: the store's schemas check an event's own fields, not
 * the records inside it, and older runs may lack a record (the node's top-level fields stand in).
 */
import { parseRenderedTable } from '../agent/render';
import type { Observation, ObservationData } from '../agent/tools';
import type { AgentStep, StepConfig } from '../agent/types';
import { FULL_CONTEXT } from '../agent/types';
import type { ToolCallRequest, Usage } from '../llm/types';
import type { StepRecord } from '../store/events';
import type { NodeState, TrajectoryState } from '../store/runState';

/** A compact, JSON-safe copy of a step for events and trajectories (observation text as the model saw it). */
export function stepRecord(step: AgentStep): StepRecord {
  return {
    index: step.index,
    thought: step.thought,
    toolCall: step.toolCall ?? null,
    observation: { ok: step.observation.ok, tool: step.observation.tool, text: step.observation.text, errorKind: step.observation.errorKind },
    usage: step.usage,
    costUsd: step.costUsd,
    latencyMs: step.latencyMs,
    config: step.config,
    // The audit travels with the step only where it found something (the inspector lists it).
    ...(step.grounding?.ungrounded.length ? { grounding: { ungrounded: step.grounding.ungrounded.map(({ kind, text, why }) => ({ kind, text, why })) } } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function toolCallOf(value: unknown): ToolCallRequest | undefined {
  if (!isRecord(value) || typeof value.name !== 'string') return undefined;
  return { id: typeof value.id === 'string' ? value.id : '', name: value.name, arguments: typeof value.arguments === 'string' ? value.arguments : JSON.stringify(value.arguments ?? {}) };
}

function argsOf(call: ToolCallRequest | undefined): Record<string, unknown> | undefined {
  if (!call) return undefined;
  try {
    const args: unknown = JSON.parse(call.arguments);
    return isRecord(args) ? args : undefined;
  } catch {
    return undefined;
  }
}

function observationData(ok: boolean, tool: string, text: string, call: ToolCallRequest | undefined): ObservationData {
  if (!ok) return { kind: 'error', message: text.replace(/^Error: /, '') };
  if (tool === 'final_answer' && call) {
    try {
      const args = JSON.parse(call.arguments) as { answer?: unknown; explanation?: unknown };
      return { kind: 'final', answer: String(args.answer ?? ''), explanation: String(args.explanation ?? '') };
    } catch {
      // fall through: recorded as text
    }
  }
  if (tool === 'run_sql') {
    const table = parseRenderedTable(text);
    if (table) return { kind: 'rows', columns: table.columns, rows: table.rows, truncated: /truncated\)$/m.test(text) };
  }
  // A document read or a search as the tool rendered it, so a re-score finds the rubric's `uses_document` as the
  // in-process verifier did (read back as stdout, a document-rule trajectory lost that criterion: 0.9944, not 1).
  const args = argsOf(call);
  if (tool === 'read_document' && typeof args?.name === 'string') {
    return { kind: 'document', document: args.name, section: typeof args.section === 'string' ? args.section : undefined, text, truncated: false };
  }
  if (tool === 'search_documents') {
    const hits = [...text.matchAll(/^(.+?) § (.*?) \(score (-?[\d.]+)\)\n {2}(.*)$/gm)].map((m) => ({ document: m[1], section: m[2], score: Number(m[3]), snippet: m[4] }));
    if (hits.length > 0) return { kind: 'search', hits };
  }
  return { kind: 'stdout', stdout: text };
}

function stepConfigOf(value: unknown): StepConfig {
  const c = isRecord(value) ? value : {};
  return {
    provider: typeof c.provider === 'string' ? c.provider : 'unknown',
    model: typeof c.model === 'string' ? c.model : 'unknown',
    contextLength: isRecord(c.contextLength) ? (c.contextLength as unknown as StepConfig['contextLength']) : FULL_CONTEXT,
    reasoningEffort: c.reasoningEffort === 'low' || c.reasoningEffort === 'medium' || c.reasoningEffort === 'high' ? c.reasoningEffort : undefined,
    simulated: c.simulated === true,
  };
}

/** One recorded step as an AgentStep; a node's own fields stand in for what the record lacks. */
export function stepFromRecord(saved: StepRecord | undefined, index: number, fallback?: NodeState): AgentStep {
  const record: Record<string, unknown> = isRecord(saved) ? { ...saved } : {};
  const call = toolCallOf(record.toolCall ?? fallback?.toolCall);
  const obs = isRecord(record.observation) ? record.observation : {};
  const text = typeof obs.text === 'string' ? obs.text : typeof fallback?.observationSummary === 'string' ? fallback.observationSummary : '';
  const ok = typeof obs.ok === 'boolean' ? obs.ok : fallback?.ok === true || (fallback?.status !== 'error' && !text.startsWith('Error:'));
  const tool = typeof obs.tool === 'string' ? obs.tool : call?.name ?? '(none)';
  const usage: Usage = isRecord(record.usage)
    ? { prompt: Number(record.usage.prompt) || 0, completion: Number(record.usage.completion) || 0 }
    : { prompt: fallback?.tokens?.prompt ?? 0, completion: fallback?.tokens?.completion ?? 0 };
  const args = argsOf(call);
  const observation: Observation = { ok, tool, ...(args ? { args } : {}), data: observationData(ok, tool, text, call), text, elapsedMs: 0 };
  if (typeof obs.errorKind === 'string') observation.errorKind = obs.errorKind as Observation['errorKind'];
  // The audit the step was recorded with (only a step with ungrounded items carries one): a re-score reads it as
  // the in-process verifier did, so every mode penalises the same items.
  const grounding = isRecord(record.grounding) && Array.isArray(record.grounding.ungrounded) ? { ungrounded: (record.grounding.ungrounded as unknown[]).filter(isRecord).map((u) => ({ kind: (u.kind === 'table' || u.kind === 'column' ? u.kind : 'literal') as 'table' | 'column' | 'literal', text: String(u.text ?? ''), why: String(u.why ?? '') })), readsFrom: [] } : undefined;
  return {
    ...(grounding ? { grounding } : {}),
    index: typeof record.index === 'number' ? record.index : index,
    thought: typeof record.thought === 'string' ? record.thought : typeof fallback?.thought === 'string' ? fallback.thought : '',
    toolCall: call,
    observation,
    usage,
    costUsd: typeof record.costUsd === 'number' ? record.costUsd : fallback?.costUsd ?? 0,
    latencyMs: typeof record.latencyMs === 'number' ? record.latencyMs : fallback?.latencyMs ?? 0,
    config: stepConfigOf(record.config ?? fallback?.config),
    promptTokensEstimate: 0,
    droppedSteps: 0,
  };
}

/** A node's step as recorded (its `step`, else its own fields). */
export function nodeStep(node: NodeState, index: number): AgentStep {
  return stepFromRecord(node.step, index, node);
}

/** An admitted trajectory's steps: its recorded `steps`, else its node path walked through the `node/added` payloads. */
export function stepsOf(trajectory: TrajectoryState, nodes: Map<string, NodeState> | undefined, warnings: string[]): AgentStep[] | undefined {
  if (Array.isArray(trajectory.steps) && trajectory.steps.every(isRecord)) {
    return trajectory.steps.map((record, i) => stepFromRecord(record, i));
  }
  if (!nodes) return undefined;
  const steps: AgentStep[] = [];
  for (const nodeId of trajectory.nodePath) {
    const node = nodes.get(nodeId);
    if (!node) {
      warnings.push(`${trajectory.trajectoryId}: node ${nodeId} of its path is not in the log`);
      return undefined;
    }
    if (node.parentId === null && node.toolCall === undefined && node.step === undefined) continue; // the root: no step
    if (!isRecord(node.step)) warnings.push(`${trajectory.trajectoryId}: node ${nodeId} has no step record; its observation is the 400-character summary`);
    steps.push(nodeStep(node, steps.length));
  }
  return steps;
}

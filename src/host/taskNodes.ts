/** The Tasks view's tree as plain data (no vscode import, so it is unit-tested): families → tasks, with rejections. */
import type { RejectedTask } from '../core/taskpool/pool';
import { revisionLines } from '../core/taskpool/detail';
import type { TaskSpec } from '../core/taskpool/types';

export interface TaskNode {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon: 'symbol-class' | 'pass' | 'error' | 'circle-outline';
  /** Set on task leaves: opening one shows its detail. */
  taskId?: string;
  children: TaskNode[];
}

const shorten = (text: string, max = 90) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function buildTaskNodes(tasks: TaskSpec[], rejected: RejectedTask[]): TaskNode[] {
  const families = [...new Set([...tasks.map((t) => t.family), ...rejected.map((r) => r.family)])].sort();
  return families.map((family) => {
    const valid = tasks.filter((t) => t.family === family);
    const bad = rejected.filter((r) => r.family === family);
    const children: TaskNode[] = valid.map((t) => ({
      id: `task:${t.id}`,
      label: shorten(t.question),
      description: `${t.difficulty.level} · ${t.validation?.status ?? 'unvalidated'}${t.revision ? ` · ${t.revision.outcome === 'rejected' ? 'rejected by revision' : t.revision.action === 're-explored' && t.revision.of !== t.id ? `revision of ${t.revision.of}` : t.revision.reason ?? `revised (${t.revision.action})`}` : ''}`,
      tooltip: [t.question, t.tables.join(', '), ...(t.revision ? revisionLines(t.revision) : [])].join('\n'),
      icon: t.validation?.status === 'rejected' ? 'error' : t.validation ? 'pass' : 'circle-outline',
      taskId: t.id,
      children: [],
    }));
    for (const r of bad) {
      children.push({ id: `rejected:${r.id}`, label: shorten(r.question), description: `rejected · ${shorten(r.reasons[0] ?? '', 60)}`, tooltip: r.reasons.join('\n'), icon: 'error', children: [] });
    }
    return {
      id: `family:${family}`,
      label: family,
      description: `${valid.length} valid${bad.length ? `, ${bad.length} rejected` : ''}`,
      icon: 'symbol-class',
      children,
    };
  });
}

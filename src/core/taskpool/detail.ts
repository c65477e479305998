/** A task as Markdown for people (the extension's task detail, reports): question, answer, evidence, rubric with anchors, roles. */
import type { TaskSpec } from './types';

function answerText(task: TaskSpec): string {
  const a = task.answer;
  switch (a.type) {
    case 'number':
      return `${a.value} (± ${a.tolerance})`;
    case 'string':
      return a.value;
    case 'list':
      return `${a.values.join(', ')}${a.ordered ? ' (in this order)' : ''}`;
    case 'table':
      return `${a.rows.length} rows × ${a.columns.join(', ')}`;
  }
}

/** A Markdown table cell: pipes escaped, lines joined; prose (criteria, reasons) is never cut. */
const proseCell = (value: unknown) => String(value ?? '').replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** A data value in a result table: cut to about 60 characters at a word boundary, marked with "…". */
function cell(value: unknown): string {
  const text = proseCell(value ?? 'NULL');
  if (text.length <= 60) return text;
  const cut = text.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${space > 40 ? cut.slice(0, space) : cut}…`;
}

export function taskDetailMarkdown(task: TaskSpec): string {
  const out: string[] = [`# ${task.question}`, ''];
  const status = task.validation ? `${task.validation.status}${task.validation.reasons.length ? ` — ${task.validation.reasons.join('; ')}` : ''}` : 'not validated';
  out.push(`- **Family:** ${task.family}${task.dependency ? ` (${task.dependency})` : ''}`);
  out.push(`- **Difficulty:** ${task.difficulty.level} — ${task.difficulty.steps} steps, ${task.difficulty.tables} tables, ${task.difficulty.joins} joins`);
  out.push(`- **Status:** ${status}${task.validation ? `; no-data check ${task.validation.noDataCheck}` : ''}`);
  out.push(`- **Answer key:** ${answerText(task)}`);
  out.push(`- **Id:** \`${task.id}\``, '');
  out.push('## Evidence', '');
  task.evidence.forEach((step, i) => {
    out.push(`${i + 1}. ${step.purpose} (\`${step.tool}\`)`, '', '```' + (step.tool === 'run_sql' ? 'sql' : 'python'), step.code, '```', '');
    if (step.result && step.result.columns.length > 0) {
      out.push(`| ${step.result.columns.map(cell).join(' | ')} |`, `| ${step.result.columns.map(() => '---').join(' | ')} |`);
      for (const row of step.result.rows.slice(0, 10)) out.push(`| ${row.map(cell).join(' | ')} |`);
      out.push('');
    }
  });
  if (task.documents?.length) {
    out.push('## Documents', '', ...task.documents.map((d) => `- ${d.document}${d.section ? ` § ${d.section}` : ''}`), '');
  }
  if (task.rubric?.length) {
    out.push('## Rubric', '', '| | weight | criterion | check | anchors |', '| --- | --- | --- | --- | --- |');
    for (const c of task.rubric) out.push(`| ${c.polarity === 'positive' ? '+' : '−'} | ${c.weight} | ${proseCell(c.description)} | ${c.check.kind} | ${c.anchors.map((a) => `\`${a}\``).join(', ')} |`);
    out.push('');
  }
  if (task.revision) {
    out.push('## Revision after exploration', '', '```', ...revisionLines(task.revision), '```', '');
  }
  if (task.roles?.length) {
    out.push('## File roles', '', '| file | role | items | why |', '| --- | --- | --- | --- |');
    const order = { core: 0, supporting: 1, confuser: 2, ambient: 3 };
    for (const r of [...task.roles].sort((a, b) => order[a.role] - order[b.role] || a.file.localeCompare(b.file))) out.push(`| ${proseCell(r.file)} | ${r.role} | ${proseCell(r.items.join(', '))} | ${proseCell(r.why)} |`);
    out.push('');
  }
  return out.join('\n');
}

const short = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value)).replace(/\n/g, ' ').slice(0, 140);

/** A revision's findings and before/after diff as plain lines (CLI `toffee revisions`, the task detail). */
export function revisionLines(revision: { outcome: string; reviser: string; findings: Array<{ check: string; detail: string }>; diff: Array<{ field: string; before: unknown; after: unknown }>; action?: string; reason?: string }): string[] {
  const lines = [`${revision.outcome} by ${revision.reviser}${revision.action && revision.action !== 'none' ? `, ${revision.action}` : ''}${revision.reason ? ` — ${revision.reason}` : ''}`];
  for (const f of revision.findings) lines.push(`  [${f.check}] ${f.detail}`);
  for (const d of revision.diff) lines.push(`  ${d.field}: ${short(d.before)}  →  ${short(d.after)}`);
  return lines;
}

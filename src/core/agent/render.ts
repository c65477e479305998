/**
 * The one observation renderer: what the model reads in its prompt, what the UI shows and what exports hold
 * are the same text. Compact, with explicit caps and truncation notes so nothing is silently cut.
 */

export interface RenderLimits {
  /** Table rows shown at most. */
  maxRows: number;
  /** Characters per table cell at most. */
  maxCellChars: number;
  /** Characters of the whole rendered observation at most. */
  maxChars: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = { maxRows: 20, maxCellChars: 60, maxChars: 4000 };

/** Cuts text to `max` characters, saying how much was dropped. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = text.slice(0, Math.max(0, max));
  return `${kept}\n… [truncated: ${text.length - kept.length} more characters]`;
}

/** A cell as the model sees it: NULL spelled out, numbers unchanged, long text cut with an ellipsis. */
export function formatCell(value: unknown, maxCellChars = DEFAULT_RENDER_LIMITS.maxCellChars): string {
  let text: string;
  if (value === null || value === undefined) text = 'NULL';
  else if (typeof value === 'number') text = Number.isInteger(value) ? String(value) : formatNumber(value);
  else if (typeof value === 'bigint') text = value.toString();
  else if (value instanceof Uint8Array) text = `<blob ${value.length} bytes>`;
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  // One line per row: newlines and pipes inside values would break the table's shape.
  text = text.replace(/\r?\n/g, '\\n').replace(/\|/g, '\\|');
  // (A value without spaces, an identifier or a code the model may have to repeat — `…:taxon:f69a72778a63…` — is
  // shown up to twice as long: cut, it could never be quoted right.)
  const cap = /\s/.test(text) ? maxCellChars : 2 * maxCellChars;
  return text.length > cap ? `${text.slice(0, Math.max(1, cap - 1))}…` : text;
}

/** Up to 15 significant digits (a total of 28,399,188,000.47 whole), without float noise like 0.30000000000000004. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toPrecision(15)));
}

/**
 * A result table as pipe-separated lines: a header, up to `maxRows` rows, then a count line that says
 * whether rows were cut here or already by the sandbox's row cap.
 */
export function renderTable(
  columns: string[],
  rows: unknown[][],
  options: { limits?: Partial<RenderLimits>; sandboxTruncated?: boolean } = {},
): string {
  const limits = { ...DEFAULT_RENDER_LIMITS, ...options.limits };
  const lines: string[] = [];
  lines.push(columns.map((c) => formatCell(c, limits.maxCellChars)).join(' | '));
  const shown = rows.slice(0, limits.maxRows);
  for (const row of shown) lines.push(row.map((v) => formatCell(v, limits.maxCellChars)).join(' | '));
  const plural = (n: number) => (n === 1 ? 'row' : 'rows');
  if (rows.length > shown.length) {
    const more = options.sandboxTruncated ? 'at least ' : '';
    lines.push(`(${more}${rows.length} ${plural(rows.length)}; showing the first ${shown.length} — truncated)`);
  } else if (options.sandboxTruncated) {
    lines.push(`(${rows.length} ${plural(rows.length)} shown; the result was cut at the sandbox row limit — truncated)`);
  } else {
    lines.push(`(${rows.length} ${plural(rows.length)})`);
  }
  return lines.join('\n');
}

/** Parses text produced by renderTable back into cells (as strings). Used by the simulated models, which read observations the way an LLM does. */
export function parseRenderedTable(text: string): { columns: string[]; rows: string[][] } | undefined {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const countIndex = lines.findIndex((l) => /^\((at least )?\d+ rows?/.test(l));
  if (countIndex < 1) return undefined;
  const split = (line: string) => line.split(/(?<!\\) \| /).map((c) => c.replace(/\\\|/g, '|'));
  const columns = split(lines[0]);
  const rows = lines.slice(1, countIndex).map(split);
  return { columns, rows };
}

export function renderError(message: string): string {
  return `Error: ${message}`;
}

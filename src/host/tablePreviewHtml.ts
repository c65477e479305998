/**
 * The table preview's HTML: the first rows of a table in a read-only grid. No scripts at all (the CSP allows one
 * nonce'd stylesheet and nothing else); every value is escaped text. No vscode import, so it is unit-tested.
 */
import type { TablePreview } from './environmentFacts';

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export interface TablePreviewColumn {
  name: string;
  /** The column's type as the Data Environment view shows it (integer, text, binary, …). */
  type: string;
}

const STYLE = `
body { margin: 0; color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
header { padding: 8px 12px; border-bottom: 1px solid var(--vscode-panel-border); }
header h1 { font-size: 1.1em; margin: 0 0 2px; }
.muted { color: var(--vscode-descriptionForeground); }
.grid { overflow: auto; height: calc(100vh - 58px); }
table { border-collapse: collapse; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size, 12px); }
th, td { border: 1px solid var(--vscode-panel-border); padding: 2px 8px; text-align: left; vertical-align: top; white-space: nowrap; max-width: 40em; overflow: hidden; text-overflow: ellipsis; }
thead th { position: sticky; top: 0; background: var(--vscode-editorWidget-background, var(--vscode-editor-background)); }
th .type { display: block; font-weight: normal; color: var(--vscode-descriptionForeground); }
td.null { color: var(--vscode-descriptionForeground); font-style: italic; }
td.number { text-align: right; }
tbody tr:nth-child(even) { background: var(--vscode-list-hoverBackground); }
th.rownum, td.rownum { color: var(--vscode-descriptionForeground); text-align: right; }
`;

/** A value on one line (line breaks shown as ⏎), the whole value in its tooltip. */
function cellHtml(value: string, numeric: boolean): string {
  const multiline = /[\r\n]/.test(value);
  const shown = multiline ? value.replace(/\r?\n/g, ' ⏎ ') : value;
  return `<td${numeric ? ' class="number"' : ''}${multiline || value.length > 60 ? ` title="${escapeHtml(value)}"` : ''}>${escapeHtml(shown)}</td>`;
}

export function buildTablePreviewHtml(preview: TablePreview, columns: TablePreviewColumn[], options: { nonce: string; source?: string }): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(options.nonce)) throw new Error('table preview HTML: the nonce must be at least 16 base64 characters');
  const typeOf = new Map(columns.map((c) => [c.name, c.type]));
  const numeric = (name: string) => typeOf.get(name) === 'integer' || typeOf.get(name) === 'real';
  const csp = `default-src 'none'; style-src 'nonce-${options.nonce}'; img-src 'none'; script-src 'none'; form-action 'none'; base-uri 'none'`;
  const shown = preview.rows.length;
  const summary = shown < preview.totalRows ? `the first ${shown.toLocaleString('en-US')} of ${preview.totalRows.toLocaleString('en-US')} rows` : `all ${preview.totalRows.toLocaleString('en-US')} rows`;
  const head = preview.columns
    .map((name) => `<th scope="col">${escapeHtml(name)}${typeOf.has(name) ? `<span class="type">${escapeHtml(typeOf.get(name)!)}</span>` : ''}</th>`)
    .join('');
  const body = preview.rows
    .map(
      (row, i) =>
        `<tr><td class="rownum">${i + 1}</td>${row
          .map((value, c) => (value === null ? '<td class="null">NULL</td>' : cellHtml(value, numeric(preview.columns[c]))))
          .join('')}</tr>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<title>${escapeHtml(preview.table)}</title>
<style nonce="${escapeHtml(options.nonce)}">${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(preview.table)}</h1><div class="muted" data-testid="preview-summary">${escapeHtml(`${summary}${options.source ? ` · from ${options.source}` : ''} · read-only`)}</div></header>
<div class="grid"><table data-testid="preview-grid"><thead><tr><th class="rownum" scope="col">#</th>${head}</tr></thead>
<tbody>
${body}
</tbody></table></div>
</body>
</html>
`;
}

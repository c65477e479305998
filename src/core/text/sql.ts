/** SQL text: identifiers and literals quoted as SQLite reads them. */

/** A double-quoted SQL identifier: `order items` → `"order items"`, an inner `"` doubled. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A SQL literal: numbers as they are, strings single-quoted with an inner `'` doubled. */
export function sqlLiteral(value: string | number): string {
  return typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'`;
}

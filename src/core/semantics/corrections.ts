/**
 * The user's corrections: `toffee.semantics.json` in the data folder fixes a column's role, additivity,
 * aggregation, unit or description, a table's kind, a relationship or a partition. It is validated as a whole; a
 * bad file is one clear error naming its line, and then none of it applies (a half-applied file would mislead).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { FileDiagnostic } from '../env/types';
import { COLUMN_ROLES } from './types';

export const CORRECTIONS_FILE = 'toffee.semantics.json';

const columnRef = z.string().regex(/^[^.]+\..+$/, 'write a column as "table.column"');

const ColumnCorrection = z
  .object({
    role: z.enum(COLUMN_ROLES as [string, ...string[]]).optional(),
    additivity: z.enum(['additive', 'semi-additive', 'non-additive']).optional(),
    aggregation: z.enum(['sum', 'avg', 'count', 'count-distinct', 'min-max', 'none']).optional(),
    unit: z.string().min(1).optional(),
    description: z.string().min(1).optional(),
    grain: z.enum(['datetime', 'day', 'week', 'month', 'quarter', 'year', 'month-of-year', 'day-of-week', 'hour-of-day', 'other']).optional(),
  })
  .strict();

const RelationshipCorrection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('foreign-key'), child: columnRef, parent: columnRef }).strict(),
  z.object({ kind: z.literal('one-to-one'), left: columnRef, right: columnRef }).strict(),
  /** Removes every inferred relationship between two tables. */
  z.object({ kind: z.literal('none'), tables: z.tuple([z.string().min(1), z.string().min(1)]) }).strict(),
]);

export const SemanticCorrections = z
  .object({
    $schema: z.string().optional(),
    columns: z.record(columnRef, ColumnCorrection).optional(),
    tables: z
      .record(
        z.string().min(1),
        z.object({ kind: z.enum(['entity', 'lookup', 'fact', 'event', 'snapshot', 'bridge', 'derived']).optional(), description: z.string().min(1).optional() }).strict(),
      )
      .optional(),
    relationships: z.array(RelationshipCorrection).optional(),
    partitions: z.array(z.object({ name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a partition name is an identifier'), tables: z.array(z.string().min(1)).min(2), key: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).optional() }).strict()).optional(),
  })
  .strict();

export type SemanticCorrections = z.infer<typeof SemanticCorrections>;

/** 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** The line where a JSON path's last key is written (keys found in order; array indexes step over items). */
export function lineOfPath(text: string, pathKeys: ReadonlyArray<PropertyKey>): number {
  let at = 0;
  for (const key of pathKeys) {
    if (typeof key === 'number') {
      // Step to the index-th object of the array that follows.
      for (let i = 0; i <= key; i++) {
        const next = text.indexOf('{', at + (i === 0 ? 0 : 1));
        if (next < 0) break;
        at = next;
      }
      continue;
    }
    const found = text.indexOf(JSON.stringify(String(key)), at);
    if (found < 0) break;
    at = found;
  }
  return lineAt(text, at);
}

/** The parsed corrections with their text (for line lookups), or the one diagnostic that says why none apply. */
export type CorrectionsResult = { corrections?: SemanticCorrections; text?: string; diagnostic?: FileDiagnostic };

/** Reads and validates the corrections file of a data folder; no file is no corrections. */
export function readCorrections(root: string): CorrectionsResult {
  const file = path.join(root, CORRECTIONS_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { diagnostic: { file: CORRECTIONS_FILE, severity: 'error', message: `Cannot read ${CORRECTIONS_FILE}: ${(error as Error).message}; no corrections applied.` } };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const line = position ? lineAt(text, Number(position[1])) : undefined;
    return { diagnostic: { file: CORRECTIONS_FILE, severity: 'error', message: `${CORRECTIONS_FILE} is not valid JSON${line ? ` at line ${line}` : ''}: ${message}; no corrections applied.`, ...(line ? { line } : {}) } };
  }
  const parsed = SemanticCorrections.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const line = lineOfPath(text, issue.path as PropertyKey[]);
    const where = issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problem${parsed.error.issues.length > 2 ? 's' : ''})` : '';
    return { diagnostic: { file: CORRECTIONS_FILE, severity: 'error', line, message: `${CORRECTIONS_FILE} line ${line}${where}: ${issue.message}${more}; no corrections applied.` } };
  }
  return { corrections: parsed.data, text };
}

/** Checks that every table and column a correction names exists; the first that does not is the error. */
export function checkReferences(corrections: SemanticCorrections, text: string, has: (table: string, column?: string) => boolean): FileDiagnostic | undefined {
  const split = (ref: string): [string, string] => [ref.slice(0, ref.indexOf('.')), ref.slice(ref.indexOf('.') + 1)];
  const fail = (pathKeys: PropertyKey[], what: string): FileDiagnostic => {
    const line = lineOfPath(text, pathKeys);
    return { file: CORRECTIONS_FILE, severity: 'error', line, message: `${CORRECTIONS_FILE} line ${line}: ${what} is not in the data environment; no corrections applied.` };
  };
  for (const ref of Object.keys(corrections.columns ?? {})) {
    const [table, column] = split(ref);
    if (!has(table, column)) return fail(['columns', ref], `column ${ref}`);
  }
  for (const table of Object.keys(corrections.tables ?? {})) if (!has(table)) return fail(['tables', table], `table ${table}`);
  for (const [i, r] of (corrections.relationships ?? []).entries()) {
    const refs = r.kind === 'foreign-key' ? [r.child, r.parent] : r.kind === 'one-to-one' ? [r.left, r.right] : [];
    for (const ref of refs) if (!has(...split(ref))) return fail(['relationships', i], `column ${ref}`);
    if (r.kind === 'none') for (const t of r.tables) if (!has(t)) return fail(['relationships', i], `table ${t}`);
  }
  for (const [i, p] of (corrections.partitions ?? []).entries()) for (const t of p.tables) if (!has(t)) return fail(['partitions', i], `table ${t}`);
  return undefined;
}

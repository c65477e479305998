import type { Database } from 'sql.js';
import { report, type LoaderContext } from './loaderContext';
import { isSafeIdentifier, toSnakeIdentifier } from './naming';
import { quoteIdent } from '../text/sql';
import { loadSqlJs, memfsFileName } from './sqlJs';
import type { DeclaredForeignKey } from './types';
import { fullTextContent, isFullTextIndex, virtualTables } from './sqliteVirtualTables';

const SQLITE_HEADER = 'SQLite format 3\u0000';

export function hasSqliteHeader(head: Buffer): boolean {
  return head.length >= 16 && head.subarray(0, 16).toString('latin1') === SQLITE_HEADER;
}

interface SchemaObject {
  type: 'table' | 'view';
  name: string;
  sql: string | null;
}

/** `CREATE VIEW name [(columns)] AS body` → body, or undefined when the statement has another shape. */
function viewBody(sql: string): string | undefined {
  const match =
    /^\s*CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?VIEW\s+(?:IF\s+NOT\s+EXISTS\s+)?(?:"(?:[^"]|"")*"|\[[^\]]*\]|`(?:[^`]|``)*`|'(?:[^']|'')*'|[^\s(]+)\s*(\([^)]*\))?\s*AS\s+([\s\S]*)$/i.exec(
      sql,
    );
  return match && !match[1] ? match[2] : undefined;
}

/**
 * Copies every table and view of a SQLite file into the image. The file is opened as a private in-memory copy
 * (never the user's file), attached to the image database, and copied table by table in SQL.
 */
export async function loadSqlite(context: LoaderContext, bytes: Buffer): Promise<void> {
  if (!hasSqliteHeader(bytes)) {
    report(context, 'error', 'Not a SQLite database (the file does not start with the SQLite header).');
    return;
  }
  const SQL = await loadSqlJs();
  let source: Database;
  try {
    source = new SQL.Database(bytes);
  } catch (e) {
    report(context, 'error', `Cannot open the SQLite database: ${(e as Error).message}`);
    return;
  }
  const alias = 'toffee_source';
  let attached = false;
  try {
    let objects: SchemaObject[];
    try {
      const result = source.exec(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name",
      );
      objects = (result[0]?.values ?? []).map(([type, name, sql]) => ({ type: type as SchemaObject['type'], name: String(name), sql: sql as string | null }));
    } catch (e) {
      report(context, 'error', `Corrupt or unreadable SQLite database: ${(e as Error).message}`);
      return;
    }
    if (objects.length === 0) {
      report(context, 'warning', 'The SQLite database has no tables or views.');
      return;
    }
    context.db.run(`ATTACH DATABASE ? AS ${alias}`, [memfsFileName(source)]);
    attached = true;

    // A full-text index is loaded as the text it holds, or left out when another table holds that text; the
    // shadow tables of any virtual table are its module's storage, never data.
    const fullText = new Map<string, { shadow: string; columns: string[] }>();
    const leftOut = new Set<string>();
    for (const virtual of virtualTables(objects)) {
      for (const shadow of virtual.shadows) leftOut.add(shadow);
      const internal = virtual.shadows.length > 0 ? ` Its ${virtual.shadows.length} internal table${virtual.shadows.length === 1 ? '' : 's'} (${virtual.shadows.join(', ')}) ${virtual.shadows.length === 1 ? 'is' : 'are'} the module's storage, not data.` : '';
      for (const shadow of virtual.shadows) (context.leftOut ??= []).push({ table: shadow, why: `internal table of the ${virtual.module} virtual table '${virtual.name}'` });
      if (!isFullTextIndex(virtual)) continue; // read through its module, where this SQLite has it
      const content = fullTextContent(virtual);
      if (content.kind === 'own') {
        fullText.set(virtual.name, { shadow: content.shadow, columns: virtual.columns });
        report(context, 'info', `Full-text index '${virtual.name}' (${virtual.module}) is loaded as the text it holds: ${virtual.columns.join(', ')}.${internal}`);
        continue;
      }
      leftOut.add(virtual.name);
      const why = content.kind === 'table' ? `a full-text index of text that table '${content.table}' holds` : 'a full-text index that keeps no text (contentless)';
      (context.leftOut ??= []).push({ table: virtual.name, why });
      report(context, 'info', `Full-text index '${virtual.name}' (${virtual.module}) left out: ${why}.${internal}`);
    }
    objects = objects.filter((o) => !leftOut.has(o.name));

    const renamed: string[] = [];
    const newNames = new Map<string, string>();
    for (const object of objects) {
      const base = isSafeIdentifier(object.name) ? object.name : toSnakeIdentifier(object.name, object.type);
      const name = context.names.allocate(base);
      newNames.set(object.name, name);
      if (name !== object.name) renamed.push(object.name);
    }

    for (const object of objects.filter((o) => o.type === 'table')) {
      const name = newNames.get(object.name)!;
      try {
        context.db.run('SAVEPOINT toffee_table');
        const text = fullText.get(object.name);
        if (text) copyFullText(context.db, alias, text.shadow, text.columns, name);
        else copyTable(context.db, alias, object.name, name);
        context.db.run('RELEASE toffee_table');
        const foreignKeys = declaredForeignKeys(context.db, alias, object.name, newNames);
        context.tables.push({ name, originalName: object.name, sourceFile: context.file, kind: 'table', ...(foreignKeys.length > 0 ? { foreignKeys } : {}) });
      } catch (e) {
        context.db.run('ROLLBACK TO toffee_table');
        context.db.run('RELEASE toffee_table');
        report(context, 'error', `Table '${object.name}' could not be copied: ${(e as Error).message}`);
      }
    }

    // Views may read other views: create them in rounds until no more succeed; the rest are materialized.
    let pending = objects.filter((o) => o.type === 'view');
    for (let progress = true; progress && pending.length > 0; ) {
      progress = false;
      const failed: SchemaObject[] = [];
      for (const view of pending) {
        const name = newNames.get(view.name)!;
        const body = view.sql ? viewBody(view.sql) : undefined;
        const mentionsRenamed = renamed.some((old) => (body ?? '').toLowerCase().includes(old.toLowerCase()));
        if (!body || mentionsRenamed || !tryCreateView(context.db, name, body)) {
          failed.push(view);
          continue;
        }
        context.tables.push({ name, originalName: view.name, sourceFile: context.file, kind: 'view', viewSql: body });
        progress = true;
      }
      pending = failed;
    }
    for (const view of pending) {
      const name = newNames.get(view.name)!;
      try {
        context.db.run('SAVEPOINT toffee_view');
        context.db.run(`CREATE TABLE ${quoteIdent(name)} AS SELECT * FROM ${alias}.${quoteIdent(view.name)}`);
        context.db.run('RELEASE toffee_view');
        const body = view.sql ? viewBody(view.sql) : undefined;
        context.tables.push({ name, originalName: view.name, sourceFile: context.file, kind: 'table', ...(body ? { viewSql: body } : {}) });
        const why = renamed.length > 0 ? 'tables it reads were renamed in the environment' : 'its definition could not be re-created as a view';
        report(context, 'info', `View '${view.name}' was materialized as table '${name}' because ${why}.`);
      } catch (e) {
        context.db.run('ROLLBACK TO toffee_view');
        context.db.run('RELEASE toffee_view');
        report(context, 'error', `View '${view.name}' could not be loaded: ${(e as Error).message}`);
      }
    }
  } finally {
    if (attached) context.db.run(`DETACH DATABASE ${alias}`);
    source.close();
  }
}

/** The foreign keys the source declares on a table, in the environment's names (keys to tables not loaded are left out). */
function declaredForeignKeys(db: Database, alias: string, sourceName: string, newNames: Map<string, string>): DeclaredForeignKey[] {
  let result;
  try {
    result = db.exec(`PRAGMA ${alias}.foreign_key_list(${quoteIdent(sourceName)})`)[0];
  } catch {
    return [];
  }
  if (!result) return [];
  const at = (column: string) => result.columns.indexOf(column);
  const byId = new Map<number, DeclaredForeignKey>();
  for (const row of result.values) {
    const table = newNames.get(String(row[at('table')])) ?? [...newNames.entries()].find(([old]) => old.toLowerCase() === String(row[at('table')]).toLowerCase())?.[1];
    if (!table) continue;
    const id = Number(row[at('id')]);
    const key = byId.get(id) ?? { columns: [], table, references: [] };
    key.columns.push(String(row[at('from')]));
    // A key that names no parent column refers to the parent's primary key; the profile resolves it.
    key.references.push(row[at('to')] === null ? '' : String(row[at('to')]));
    byId.set(id, key);
  }
  return [...byId.values()];
}

/** Re-creates a table with its declared column types and primary key, then copies its rows in SQL. */
function copyTable(db: Database, alias: string, sourceName: string, name: string): void {
  const info = db.exec(`PRAGMA ${alias}.table_info(${quoteIdent(sourceName)})`)[0];
  if (!info) throw new Error('no columns');
  const at = (column: string) => info.columns.indexOf(column);
  const columns = info.values.map((row) => ({
    name: String(row[at('name')]),
    type: String(row[at('type')] ?? ''),
    notNull: Number(row[at('notnull')]) === 1,
    pk: Number(row[at('pk')]),
  }));
  const keyColumns = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  const definitions = columns.map((c) => `${quoteIdent(c.name)}${c.type ? ` ${c.type}` : ''}${c.notNull ? ' NOT NULL' : ''}`);
  if (keyColumns.length > 0) definitions.push(`PRIMARY KEY (${keyColumns.map((c) => quoteIdent(c.name)).join(', ')})`);
  const columnList = columns.map((c) => quoteIdent(c.name)).join(', ');
  db.run(`CREATE TABLE ${quoteIdent(name)} (${definitions.join(', ')})`);
  db.run(`INSERT INTO ${quoteIdent(name)} (${columnList}) SELECT ${columnList} FROM ${alias}.${quoteIdent(sourceName)}`);
}

/**
 * A full-text index's own text, from its `_content` shadow table: the rowid first (`id` in fts5, `docid` in fts3/4),
 * then one column per declared column, in order (`c0`, `c1`, … or `c0title`, `c1body`, …), named as declared.
 */
function copyFullText(db: Database, alias: string, shadow: string, declared: string[], name: string): void {
  const info = db.exec(`PRAGMA ${alias}.table_info(${quoteIdent(shadow)})`)[0];
  const stored = (info?.values ?? []).map((row) => String(row[info!.columns.indexOf('name')]));
  if (stored.length !== declared.length + 1) throw new Error(`its text table '${shadow}' has ${stored.length} columns for ${declared.length} declared`);
  const select = declared.map((column, i) => `${quoteIdent(stored[i + 1])} AS ${quoteIdent(column)}`).join(', ');
  db.run(`CREATE TABLE ${quoteIdent(name)} AS SELECT ${select} FROM ${alias}.${quoteIdent(shadow)} ORDER BY ${quoteIdent(stored[0])}`);
}

/** Creates a view and checks that it runs here; leaves nothing behind when it does not. */
function tryCreateView(db: Database, name: string, body: string): boolean {
  db.run('SAVEPOINT toffee_view');
  try {
    db.run(`CREATE VIEW ${quoteIdent(name)} AS ${body}`);
    db.exec(`SELECT * FROM ${quoteIdent(name)} LIMIT 0`);
    db.run('RELEASE toffee_view');
    return true;
  } catch {
    db.run('ROLLBACK TO toffee_view');
    db.run('RELEASE toffee_view');
    return false;
  }
}

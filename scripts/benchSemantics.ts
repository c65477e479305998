/**
 * `npm run bench:semantics`: the semantic profile against the reviewer's column labels, per public environment.
 * Role agreement is over every labelled column the environment has (a glob row of a partition counts once per
 * file); additivity agreement is over the columns both the reviewer and TOFFEE call measures; time-grain agreement
 * over the columns both call time. Rules are written on the `rules` set; the targets (≥ 95% role and additivity
 * agreement) are for the `held-out` set; with none registered, the last set measured blind and then used (`dev-N`) is
 * reported against them.
 *
 *   node out/scripts/benchSemantics.js [--env NAME[,NAME]] [--disagreements] [--json]
 *
 * `--disagreements` leaves out the held-out set's, which nobody reads before its blind measurement is recorded, unless
 * `--env` names its environments one by one.
 */
import { stackedTableOf } from '../src/core/env/naming';
import type { ColumnProfile } from '../src/core/env/types';
import { loadSemanticEnvironment } from '../src/core/semantics/index';
import type { SemanticEnvironment } from '../src/core/semantics/types';
import { columnLabels, filePattern, materialize, PUBLIC_ENVIRONMENTS, type ColumnLabel, type PublicFixture } from '../test/support/publicFixtures';

const TARGET = 0.95;

export interface LabelledColumn {
  label: ColumnLabel;
  table: string;
  column: string;
  role: string;
  additivity?: string;
  grain?: string;
  rule: string;
  why: string;
}

/** The environment columns a label row names (several for a glob over partition files). */
/**
 * The column a label names by the last row of a header of several rows, when TOFFEE names it by all of them: a
 * workbook's banner (merged cells) over its column names (EIA-861: "Energy Sources (Megawatthours)" over "Net
 * Generation", loaded as "Energy Sources (Megawatthours) Net Generation"). The same column, read by its header's
 * bottom cell. Where several columns end so (the LPI's `score` under each of seven groups), the label checker named
 * them all by that one cell, and the label covers every one: all are returned.
 */
function bannerNamed(columns: readonly ColumnProfile[], name: string, labelled: readonly string[]): ColumnProfile[] {
  if (name === '') return [];
  const spans = (c: ColumnProfile) => /^[A-Z]+\d+:[A-Z]+\d+$/.test(c.origin?.headerCells ?? '');
  const endsWith = (c: ColumnProfile, tail: string) => c.originalName.toLowerCase().endsWith(` ${tail.toLowerCase()}`);
  // (A longer label that ends the same way, "From Retail Sales" beside "Retail Sales", names its own column.)
  const longer = labelled.filter((l) => l.length > name.length && l.toLowerCase().endsWith(` ${name.toLowerCase()}`));
  return columns.filter((c) => spans(c) && endsWith(c, name) && !longer.some((l) => endsWith(c, l)));
}

/**
 * The column a label names by the top row of a header of several rows, when TOFFEE names it by all of them: a header
 * over a row of units (EIA: "Total Fossil Fuels Production" over "(Quadrillion Btu)", loaded as "Total Fossil Fuels
 * Production (Quadrillion Btu)"). Only where exactly one column of the table starts so.
 */
function headerTopNamed(columns: readonly ColumnProfile[], name: string): ColumnProfile | undefined {
  if (name === '') return undefined;
  const found = columns.filter((c) => c.origin?.sheet && /^[A-Z]+\d+:[A-Z]+\d+$/.test(c.origin.headerCells ?? '') && c.originalName.toLowerCase().startsWith(`${name.toLowerCase()} `));
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The column a label names by its first value: the label checker names a sheet's columns by the row with the most
 * filled cells, which is the first row of figures where the header is a block of merged groups over fewer cells (ONS:
 * "Area of residence" over "North America" over "NSA"), so a label row names `2734.1272400582302`, `2018` or `Jan`.
 * The column of the sheet whose first value that is (numbers compared as numbers); only where exactly one is.
 */
function firstValueNamed(columns: readonly ColumnProfile[], name: string): ColumnProfile | undefined {
  if (name === '') return undefined;
  const number = Number(name);
  const found = columns.filter((c) => {
    const first = c.samples[0];
    if (!c.origin?.sheet || first === undefined || first === null) return false;
    return typeof first === 'number' ? Number.isFinite(number) && first === number : String(first).trim() === name;
  });
  return found.length === 1 ? found[0] : undefined;
}

export function labelledColumns(env: SemanticEnvironment, labels: ColumnLabel[]): { matched: LabelledColumn[]; unmatched: ColumnLabel[]; dropped: ColumnLabel[] } {
  const matched: LabelledColumn[] = [];
  const unmatched: ColumnLabel[] = [];
  // Label rows for columns the loader leaves out as empty and unnamed (no header, no value), and for tables it leaves
  // out on purpose (a full-text index and its module's internal tables): said apart, not counted.
  const dropped: ColumnLabel[] = [];
  // A nested JSON table's path: its parents' array keys and its own (`matches.goals1`); a wrapper's key (`file.json#matches`).
  const byName = new Map(env.profile.tables.map((t) => [t.name, t]));
  const pathOf = (t: (typeof env.profile.tables)[number]): string => {
    const own = t.originalName.includes('#') ? t.originalName.slice(t.originalName.indexOf('#') + 1) : t.parent ? t.originalName : '';
    const parent = t.parent ? byName.get(t.parent.table) : undefined;
    const above = parent ? pathOf(parent) : '';
    return [above, own].filter(Boolean).join('.');
  };
  // The semantics of a column a label names, recorded as matched; false where the profile has none.
  const match = (label: ColumnLabel, table: string, column: string): boolean => {
    const semantics = env.semantics.columns.find((c) => c.table === table && c.column === column);
    if (!semantics) return false;
    const rule = semantics.role.source.kind === 'rule' ? semantics.role.source.rule : semantics.role.source.kind;
    matched.push({ label, table, column, role: semantics.role.value, additivity: semantics.additivity?.value, grain: semantics.time?.grain, rule, why: semantics.role.why });
    return true;
  };
  for (const label of labels) {
    const pattern = filePattern(label.file);
    const tables = env.profile.tables.filter((t) => {
      if (!pattern.test(t.sourceFile)) return false;
      if (label.table === '') return !t.parent;
      // (A sheet that stacks several tables loads as one table per block, named `Sheet › Block title`.)
      return t.originalName === label.table || pathOf(t) === label.table || t.originalName.endsWith(`#${label.table}`) || stackedTableOf(t.originalName)?.sheet === label.table;
    });
    let found = 0;
    for (const table of tables) {
      // A header written with padding (` AK `) is named by its trimmed text: the loader trims headers.
      const named = table.columns.find((c) => c.originalName === label.column)
        ?? (label.column.trim() === '' ? undefined : table.columns.find((c) => c.originalName === label.column.trim() || c.name === label.column));
      const banner = named ? [] : bannerNamed(table.columns, label.column.trim(), labels.filter((l) => l.file === label.file && l.table === label.table).map((l) => l.column.trim()));
      const single = named ?? firstValueNamed(table.columns, label.column.trim()) ?? headerTopNamed(table.columns, label.column.trim());
      const columns = named ? [named] : banner.length > 0 ? banner : single ? [single] : [];
      for (const column of columns) if (match(label, table.name, column.name)) found++;
    }
    // A field of an array's items named by its first item (`activePlaces[0].name`, `subjects.children[0].children[1].id`):
    // the column of the table the loader made of those items (`…_active_places.name`), whichever item the label names.
    if (found === 0 && label.table === '' && /\[\d+\]/.test(label.column)) {
      const cut = label.column.lastIndexOf('].');
      const path = label.column.slice(0, cut + 1).replace(/\[\d+\]/g, '');
      const field = label.column.slice(cut + 2);
      for (const table of env.profile.tables.filter((t) => pattern.test(t.sourceFile) && t.parent && pathOf(t) === path)) {
        const column = table.columns.find((c) => c.originalName === field);
        if (column && match(label, table.name, column.name)) found++;
      }
    }
    if (found > 0) continue;
    const left =
      env.profile.tables.some((t) => pattern.test(t.sourceFile) && (label.table === '' || t.originalName === label.table) && t.droppedColumns?.includes(label.column)) ||
      env.profile.files.some((f) => pattern.test(f.file) && f.leftOut?.some((l) => l.table === label.table));
    (left ? dropped : unmatched).push(label);
  }
  return { matched, unmatched, dropped };
}

export interface Agreement {
  environment: string;
  set: PublicFixture['set'];
  labelled: number;
  unmatched: number;
  /** Label rows for columns the loader leaves out as empty and unnamed: reported, not counted. */
  dropped: number;
  roleAgree: number;
  roleTotal: number;
  additivityAgree: number;
  additivityTotal: number;
  grainAgree: number;
  grainTotal: number;
  disagreements: LabelledColumn[];
}

export function agreement(fixture: PublicFixture, env: SemanticEnvironment): Agreement {
  const labels = columnLabels(fixture);
  const { matched, unmatched, dropped } = labelledColumns(env, labels);
  const result: Agreement = { environment: fixture.name, set: fixture.set, labelled: labels.length, unmatched: unmatched.length, dropped: dropped.length, roleAgree: 0, roleTotal: matched.length, additivityAgree: 0, additivityTotal: 0, grainAgree: 0, grainTotal: 0, disagreements: [] };
  for (const m of matched) {
    const roleOk = m.role === m.label.role;
    if (roleOk) result.roleAgree++;
    let additivityOk = true;
    if (m.label.role === 'measure' && m.role === 'measure') {
      result.additivityTotal++;
      additivityOk = m.additivity === m.label.additivity;
      if (additivityOk) result.additivityAgree++;
    }
    let grainOk = true;
    if (m.label.role === 'time' && m.role === 'time') {
      result.grainTotal++;
      grainOk = m.grain === m.label.timeGrain;
      if (grainOk) result.grainAgree++;
    }
    if (!roleOk || !additivityOk || !grainOk) result.disagreements.push(m);
  }
  return result;
}

const pct = (a: number, n: number) => (n === 0 ? '   —  ' : `${((100 * a) / n).toFixed(1).padStart(5)}%`);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.includes('--env') ? args[args.indexOf('--env') + 1].split(',') : undefined;
  const showDisagreements = args.includes('--disagreements');
  const asJson = args.includes('--json');
  const results: Agreement[] = [];
  for (const fixture of PUBLIC_ENVIRONMENTS) {
    if (only && !only.includes(fixture.name)) continue;
    const folder = await materialize(fixture);
    try {
      const env = await loadSemanticEnvironment(folder.root);
      results.push(agreement(fixture, env));
    } finally {
      folder.cleanup();
    }
  }
  if (asJson) {
    console.log(JSON.stringify(results, null, 2));
    return;
  }
  console.log('environment                 set       columns  role agreement   additivity (measures)   time grain');
  const totals: Record<string, Agreement> = {};
  for (const r of results) {
    console.log(
      `${r.environment.padEnd(27)} ${r.set.padEnd(9)} ${String(r.roleTotal).padStart(7)}  ${pct(r.roleAgree, r.roleTotal)} (${r.roleAgree}/${r.roleTotal})`.padEnd(72) +
        `${pct(r.additivityAgree, r.additivityTotal)} (${r.additivityAgree}/${r.additivityTotal})`.padEnd(24) +
        `${pct(r.grainAgree, r.grainTotal)} (${r.grainAgree}/${r.grainTotal})${r.unmatched > 0 ? `   ${r.unmatched} label row(s) match no column` : ''}` +
        `${r.dropped > 0 ? `   ${r.dropped} label row(s) name columns or tables the loader leaves out on purpose (not counted)` : ''}`,
    );
    const t = (totals[r.set] ??= { ...r, environment: r.set, labelled: 0, unmatched: 0, dropped: 0, roleAgree: 0, roleTotal: 0, additivityAgree: 0, additivityTotal: 0, grainAgree: 0, grainTotal: 0, disagreements: [] });
    for (const key of ['roleAgree', 'roleTotal', 'additivityAgree', 'additivityTotal', 'grainAgree', 'grainTotal', 'unmatched', 'dropped'] as const) t[key] += r[key];
  }
  console.log('');
  for (const t of Object.values(totals)) {
    console.log(`all ${t.environment.padEnd(23)} ${''.padEnd(9)} ${String(t.roleTotal).padStart(7)}  ${pct(t.roleAgree, t.roleTotal)}`.padEnd(72) + `${pct(t.additivityAgree, t.additivityTotal)}`.padEnd(24) + pct(t.grainAgree, t.grainTotal) + (t.dropped > 0 ? `   (${t.dropped} label row(s) of left-out empty columns not counted)` : ''));
  }
  // The targets are for data the rules were not written on: the held-out set, or (when none is left unseen) the
  // last set measured blind once and then used.
  const lastDev = results.map((r) => r.set).filter((s) => /^dev-\d+$/.test(s)).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4))).pop();
  const heldOut = results.some((r) => r.set === 'held-out') ? results.filter((r) => r.set === 'held-out') : results.filter((r) => r.set === lastDev);
  if (heldOut.length > 0) {
    console.log('');
    for (const r of heldOut) {
      const role = r.roleTotal === 0 ? 0 : r.roleAgree / r.roleTotal;
      const additivity = r.additivityTotal === 0 ? 1 : r.additivityAgree / r.additivityTotal;
      console.log(`${r.environment}: role ${(100 * role).toFixed(1)}% ${role >= TARGET ? 'MET' : 'NOT MET'}, additivity ${(100 * additivity).toFixed(1)}% ${additivity >= TARGET ? 'MET' : 'NOT MET'} (target ≥ ${TARGET * 100}% each, ${r.set}${r.set === 'held-out' ? '' : ': measured blind once, then used to improve the rules'})`);
    }
  }
  if (showDisagreements) {
    const withheld = results.filter((r) => r.set === 'held-out' && !only?.includes(r.environment) && r.disagreements.length > 0);
    if (withheld.length > 0) console.log(`\n(the held-out set's disagreements are left out: ${withheld.map((r) => r.environment).join(', ')}; name them with --env to read them)`);
    for (const r of results) {
      if (r.disagreements.length === 0 || withheld.includes(r)) continue;
      console.log(`\n${r.environment} (${r.set}): ${r.disagreements.length} disagreement(s)`);
      for (const d of r.disagreements) {
        const label = `${d.label.role}${d.label.additivity ? `/${d.label.additivity}` : ''}${d.label.role === 'time' && d.label.timeGrain ? `/${d.label.timeGrain}` : ''}`;
        const ours = `${d.role}${d.additivity ? `/${d.additivity}` : ''}${d.role === 'time' && d.grain ? `/${d.grain}` : ''}`;
        console.log(`  ${d.table}.${d.column}: reviewer ${label}, TOFFEE ${ours} [${d.rule}: ${d.why}]${d.label.note ? ` — note: ${d.label.note}` : ''}`);
      }
    }
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}

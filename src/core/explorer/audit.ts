/**
 * Verifier audit (GraphForge's perturbation check): does the rubric verifier really read the evidence its
 * criteria anchor to? For each sampled admitted trajectory and each criterion that anchors to environment data,
 * the anchored evidence is perturbed in a copy of the SQLite image — the table dropped, the column dropped, or the
 * column's values altered — the trajectory's SQL steps are replayed against it (in-process sql.js; Python,
 * document and answer steps are kept as recorded), and the rubric is re-scored. A criterion's score is 1 when it
 * is satisfied (a positive criterion holds, a negative one does not), else 0.
 *
 * Per perturbation kind and criterion kind the report gives the mean score drop of *targeted* criteria (those that
 * name the perturbed table / column) and the mean |Δ| of *untargeted* ones (criteria on other evidence, read by
 * no step that reads the perturbed evidence); criteria on other evidence that share a step with the perturbed
 * evidence (a join breaks with either side) are reported apart as *collateral*. The baseline is the same replay on the
 * unperturbed image, so a Δ comes from the perturbation alone. A targeted criterion that was satisfied and stays
 * satisfied when its table or column is removed is flagged (positive criteria only: a negative "does not use the
 * confuser table" criterion cannot move when that table goes): its verdict does not depend on its evidence.
 *
 * After every perturbation the task's answer key is re-derived by re-running its evidence SQL on the perturbed
 * image, and the answer criteria (final_value, reports_values) are re-checked against that key: the recorded
 * final answer no longer matches when an edit changed what the data says, so value edits move them (and a
 * verifier that ignores the key is flagged). The name-based checks (uses_table, uses_column, joins_on) read which
 * evidence a step used, not its values; their insensitivity to value edits is reported per criterion kind. The
 * scorer also gets the perturbed schema: a named column counts only when it resolves to a real column (SQLite
 * reads a missing double-quoted column as a string literal, so the step alone would still succeed).
 */
import type { Database, SqlJsStatic } from 'sql.js';
import { renderError, renderTable } from '../agent/render';
import { stepCode } from '../agent/steps';
import type { AgentStep } from '../agent/types';
import { loadSqlJs } from '../env/sqlJs';
import { numbersIn } from '../taskpool/answer';
import { keyFromRows } from '../taskpool/revise';
import type { AnswerKey, EvidenceStep, RubricCheck, RubricCriterion } from '../taskpool/types';
import { containsWord } from '../text/regex';
import { quoteIdent } from '../text/sql';
import { RubricEnvironment, RubricResult, scoreRubric } from './verifier';

export type PerturbationKind = 'drop-table' | 'drop-column' | 'edit-values';

export interface Perturbation {
  kind: PerturbationKind;
  table: string;
  column?: string;
}

/** What the audit needs of a trajectory (ExportTrajectory fits). */
export interface AuditTrajectory {
  trajectoryId: string;
  /** With the answer key and evidence, answer criteria are re-checked against a key re-derived after each perturbation. */
  task: { id: string; rubric?: RubricCriterion[]; answer?: AnswerKey; evidence?: EvidenceStep[] };
  steps: AgentStep[];
  finalAnswer?: { answer: string; explanation: string };
}

/** The verifier under audit; the real one by default (a test passes a stub to check that the audit catches it). */
export type RubricScorer = (
  rubric: readonly RubricCriterion[],
  steps: readonly AgentStep[],
  finalAnswer: { answer: string; explanation: string } | undefined,
  environment?: RubricEnvironment,
) => RubricResult;

export interface AuditOptions {
  /** Most trajectories audited (the first N by id). Default 20. */
  max?: number;
  scorer?: RubricScorer;
}

export interface AuditCell {
  targeted: { n: number; meanDrop: number | null };
  /** Criteria that name other evidence, read by no step that reads the perturbed evidence. */
  untargeted: { n: number; meanAbsDelta: number | null };
  /** Criteria naming other evidence that a step shares with the perturbed evidence (see `collateral`). */
  collateral: { n: number; meanAbsDelta: number | null };
}

export interface AuditFlag {
  trajectoryId: string;
  criterionId: string;
  criterionKind: string;
  perturbation: Perturbation;
}

export interface AuditReport {
  trajectories: number;
  skippedTrajectories: Array<{ trajectoryId: string; reason: string }>;
  perturbations: number;
  /** Perturbations that could not be applied (e.g. the anchored table is not in the image). */
  skippedPerturbations: Array<{ trajectoryId: string; perturbation: Perturbation; reason: string }>;
  /** Steps kept as recorded because they are not SQL (Python, documents, answers). */
  stepsNotReplayed: number;
  stepsReplayed: number;
  /** Negative (confuser) criteria naming the perturbed evidence: left out of the targeted figures, never flagged. */
  negativeTargetedSkipped: number;
  /** Perturbations after which the answer key was re-derived by re-running the task's evidence SQL. */
  answerKeysRederived: number;
  /** Of those, how many changed the key (a value edit the answer depends on). */
  answerKeysChanged: number;
  /** Trajectories whose answer key could not be re-derived (no evidence recorded, or Python evidence). */
  answerKeysNotRederivable: number;
  /** Per perturbation kind: overall and by criterion kind. */
  byPerturbation: Record<PerturbationKind, AuditCell & { byCriterion: Record<string, AuditCell> }>;
  /** Targeted criteria whose verdict survived the removal of their table or column, or a value edit that changed the answer key. */
  flags: AuditFlag[];
}

/** The data evidence a criterion's check names, as (table, column?) pairs. */
function anchoredData(check: RubricCheck): Array<{ table: string; column?: string }> {
  switch (check.kind) {
    case 'uses_table':
      return [{ table: check.table }];
    case 'uses_column':
      return [{ table: check.table, column: check.column }];
    case 'joins_on':
      return [check.left, check.right];
    default:
      return [];
  }
}

/** The perturbations aimed at a criterion's evidence. */
function perturbationsFor(check: RubricCheck): Perturbation[] {
  switch (check.kind) {
    case 'uses_table':
      return [{ kind: 'drop-table', table: check.table }];
    case 'uses_column':
      return [
        { kind: 'drop-column', table: check.table, column: check.column },
        { kind: 'edit-values', table: check.table, column: check.column },
      ];
    case 'joins_on':
      return [
        { kind: 'drop-column', table: check.left.table, column: check.left.column },
        { kind: 'edit-values', table: check.left.table, column: check.left.column },
      ];
    default:
      return [];
  }
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Whether a perturbation touches evidence the criterion names: a table drop hits every check on that table. The
 * answer criteria (final_value, reports_values) rest on the answer key, re-derived from the perturbed evidence:
 * they are targeted exactly when the perturbation changed that key (else they must not move).
 */
function targets(perturbation: Perturbation, check: RubricCheck, keyChanged: boolean, subKeysChanged: ReadonlySet<number>): boolean {
  if (check.kind === 'final_value' || check.kind === 'reports_values') return keyChanged;
  // A step's sub-answer rests on the evidence up to that step, re-derived the same way.
  if (check.kind === 'sub_answer') return subKeysChanged.has(check.step);
  return anchoredData(check).some((d) => sameName(d.table, perturbation.table) && (perturbation.kind === 'drop-table' || (d.column !== undefined && sameName(d.column, perturbation.column ?? ''))));
}

/** A key nothing matches: the evidence no longer states an answer, so no recorded answer can be right. */
const NO_KEY: AnswerKey = { type: 'string', value: '\u0000(the evidence no longer yields an answer)' };

/** The answer key the task's evidence SQL yields on `db`; NO_KEY when it fails or returns nothing. */
function rederiveKey(db: Database, key: AnswerKey, evidence: readonly EvidenceStep[]): AnswerKey {
  let last: { columns: string[]; rows: unknown[][] } | undefined;
  try {
    for (const step of evidence) {
      const results = db.exec(step.code);
      const final = results[results.length - 1];
      last = { columns: final?.columns ?? [], rows: (final?.values ?? []) as unknown[][] };
    }
  } catch {
    return NO_KEY;
  }
  return (last && keyFromRows(key, last.columns, last.rows)) ?? NO_KEY;
}

/** Each sub-answer criterion's key re-derived from the evidence up to its step on `db`. */
function rederiveSubKeys(db: Database, rubric: readonly RubricCriterion[], evidence: readonly EvidenceStep[]): Map<number, AnswerKey> {
  const keys = new Map<number, AnswerKey>();
  for (const c of rubric) {
    if (c.check.kind !== 'sub_answer' || keys.has(c.check.step)) continue;
    // Only a prefix of SQL steps re-runs here; a sub-answer after a Python step keeps its recorded key.
    const prefix = evidence.slice(0, c.check.step + 1);
    if (prefix.every((e) => e.tool === 'run_sql')) keys.set(c.check.step, rederiveKey(db, c.check.answer, prefix));
  }
  return keys;
}

/** The rubric with its answer criteria bound to a (re-derived) answer key, and its sub-answers to theirs. */
function withKey(rubric: readonly RubricCriterion[], key: AnswerKey | undefined, subKeys: ReadonlyMap<number, AnswerKey> = new Map()): RubricCriterion[] {
  const values = key === undefined ? undefined : key === NO_KEY ? [NO_KEY.type === 'string' ? NO_KEY.value : ''] : key.type === 'list' ? key.values : key.type === 'table' ? key.rows.map((r) => String(r[0])) : undefined;
  return rubric.map((c) => {
    if (c.check.kind === 'final_value' && key) return { ...c, check: { kind: 'final_value', answer: key } };
    if (c.check.kind === 'reports_values' && values) return { ...c, check: { kind: 'reports_values', values } };
    const sub = c.check.kind === 'sub_answer' ? subKeys.get(c.check.step) : undefined;
    if (c.check.kind === 'sub_answer' && sub) return { ...c, check: { ...c.check, answer: sub } };
    return c;
  });
}

/** The schema of `db`, for the scorer's real-column check. */
function schemaOf(db: Database): RubricEnvironment {
  const tables = new Map<string, string[]>();
  for (const row of db.exec(`SELECT name FROM sqlite_master WHERE type IN ('table','view')`)[0]?.values ?? []) {
    const name = String(row[0]);
    tables.set(name.toLowerCase(), (db.exec(`PRAGMA table_info(${quoteIdent(name)})`)[0]?.values ?? []).map((r) => String(r[1])));
  }
  return { columnsOf: (table) => tables.get(table.toLowerCase()) };
}

function findTable(db: Database, table: string): { name: string; type: string } | undefined {
  const rows = db.exec(`SELECT name, type FROM sqlite_master WHERE type IN ('table','view') AND lower(name) = lower(?)`, [table]);
  const row = rows[0]?.values[0];
  return row ? { name: String(row[0]), type: String(row[1]) } : undefined;
}

/** Applies a perturbation to an open database; throws with a plain-words reason when it cannot. */
function applyPerturbation(db: Database, p: Perturbation): void {
  const found = findTable(db, p.table);
  if (!found) throw new Error(`table ${p.table} is not in the image`);
  const t = quoteIdent(found.name);
  if (p.kind === 'drop-table') {
    db.run(`DROP ${found.type === 'view' ? 'VIEW' : 'TABLE'} ${t}`);
    return;
  }
  if (found.type !== 'table') throw new Error(`${p.table} is a view; only its drop is audited`);
  const columns = (db.exec(`PRAGMA table_info(${t})`)[0]?.values ?? []).map((r) => String(r[1]));
  const column = columns.find((c) => sameName(c, p.column ?? ''));
  if (!column) throw new Error(`column ${p.table}.${p.column} is not in the image`);
  if (p.kind === 'drop-column') {
    // Rebuilt rather than ALTER … DROP COLUMN, which refuses indexed or key columns.
    const kept = columns.filter((c) => c !== column);
    if (kept.length === 0) throw new Error(`${p.table} has no other column`);
    db.run(`CREATE TABLE "__toffee_audit" AS SELECT ${kept.map(quoteIdent).join(', ')} FROM ${t}; DROP TABLE ${t}; ALTER TABLE "__toffee_audit" RENAME TO ${t};`);
    return;
  }
  const c = quoteIdent(column);
  db.run(`UPDATE ${t} SET ${c} = CASE WHEN typeof(${c}) IN ('integer','real') THEN ${c} * 1.37 + 1 WHEN ${c} IS NULL THEN NULL ELSE ${c} || '~' END`);
}

/**
 * The trajectory with every SQL step re-run against `db` (observation rebuilt with the one renderer) and every
 * describe_table step failing when its table is gone (the verifier counts a described table as used).
 */
function replay(db: Database, steps: readonly AgentStep[], counts: { replayed: number; kept: number }): AgentStep[] {
  return steps.map((step) => {
    if (step.toolCall?.name === 'describe_table' && step.observation.ok) {
      counts.replayed++;
      const args = step.observation.args ?? parseArgs(step.toolCall.arguments);
      const table = typeof args?.table === 'string' ? args.table : '';
      if (findTable(db, table)) return step;
      const message = `no table named ${table}`;
      return { ...step, observation: { ...step.observation, ok: false, data: { kind: 'error', message }, text: renderError(message) } };
    }
    const code = step.toolCall?.name === 'run_sql' ? stepCode(step) : undefined;
    if (code === undefined) {
      counts.kept++;
      return step;
    }
    counts.replayed++;
    try {
      const results = db.exec(code);
      const last = results[results.length - 1];
      const columns = last?.columns ?? [];
      const rows = (last?.values ?? []) as unknown[][];
      return { ...step, observation: { ...step.observation, ok: true, data: { kind: 'rows', columns, rows, truncated: false }, text: renderTable(columns, rows), errorKind: undefined } };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ...step, observation: { ...step.observation, ok: false, data: { kind: 'error', message }, text: renderError(message) } };
    }
  });
}

function parseArgs(text: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The steps whose code can carry a criterion's support: for a check naming tables, the steps that name one of
 * them; for a documented parameter, the steps whose code applies that value (the check is satisfied only by a
 * successful step that does). Document and answer criteria are carried by no data step.
 */
function supportingCode(check: RubricCheck, steps: readonly AgentStep[]): string[] {
  const codes = steps.map(stepCode).filter((code): code is string => code !== undefined);
  if (check.kind === 'uses_parameter') return codes.filter((code) => numbersIn(code).some((n) => Math.abs(n - check.value) <= 1e-9 * Math.max(1, Math.abs(check.value))));
  const tables = anchoredData(check).map((d) => d.table);
  return codes.filter((code) => tables.some((t) => containsWord(code, t)));
}

/**
 * A criterion that does not name the perturbed evidence but whose support comes from a step that also reads the
 * perturbed table (a join, a query on the same table, or the query that applies a documented parameter to it):
 * when that step breaks, the criterion loses its support legitimately. These are reported apart ("collateral")
 * so that "untargeted" measures spurious movement only: criteria whose evidence no perturbed step reads.
 */
function collateral(perturbation: Perturbation, check: RubricCheck, steps: readonly AgentStep[]): boolean {
  return supportingCode(check, steps).some((code) => containsWord(code, perturbation.table) && (perturbation.column === undefined || containsWord(code, perturbation.column)));
}

/** 1 when a criterion is satisfied, 0 when not, null when unjudged. */
function criterionScores(result: RubricResult): Map<string, { kind: string; score: number | null }> {
  return new Map(result.criteria.map((c) => [c.id, { kind: c.kind, score: c.holds === null ? null : (c.polarity === 'positive') === c.holds ? 1 : 0 }]));
}

const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 1e4) / 1e4 : null);

function withDatabase<T>(SQL: SqlJsStatic, image: Uint8Array, body: (db: Database) => T): T {
  const db = new SQL.Database(image);
  try {
    return body(db);
  } finally {
    db.close();
  }
}

/** Score changes of one perturbation, pooled by whether the perturbation targets the criterion. */
interface Samples {
  targeted: number[];
  untargeted: number[];
  collateral: number[];
  byCriterion: Map<string, { targeted: number[]; untargeted: number[]; collateral: number[] }>;
}

type CriterionScores = Map<string, { kind: string; score: number | null }>;

/** Each judged criterion's score before and after one perturbation, into its pool; a targeted criterion that did not move is flagged. */
function compareCriteria(report: AuditReport, bucket: Samples, trajectory: AuditTrajectory, p: Perturbation, scores: { base: CriterionScores; perturbed: CriterionScores; keyChanged: boolean; subKeysChanged: ReadonlySet<number> }): void {
  for (const criterion of trajectory.task.rubric ?? []) {
    const before = scores.base.get(criterion.id)?.score;
    const after = scores.perturbed.get(criterion.id)?.score;
    if (before === null || before === undefined || after === null || after === undefined) continue;
    const cell = bucket.byCriterion.get(criterion.check.kind) ?? { targeted: [], untargeted: [], collateral: [] };
    bucket.byCriterion.set(criterion.check.kind, cell);
    const targeted = targets(p, criterion.check, scores.keyChanged, scores.subKeysChanged);
    if (targeted && criterion.polarity === 'negative') {
      // A confuser criterion ("does not use table X") is satisfied by not reading X; removing X cannot move it.
      report.negativeTargetedSkipped++;
      continue;
    }
    if (targeted) {
      bucket.targeted.push(before - after);
      cell.targeted.push(before - after);
      // Removal must move a targeted criterion; a value edit must move an answer criterion whose key it changed.
      const mustMove = p.kind !== 'edit-values' || criterion.check.kind === 'final_value' || criterion.check.kind === 'reports_values';
      if (mustMove && before === 1 && after === 1) report.flags.push({ trajectoryId: trajectory.trajectoryId, criterionId: criterion.id, criterionKind: criterion.check.kind, perturbation: p });
    } else {
      const pool = collateral(p, criterion.check, trajectory.steps) ? 'collateral' : 'untargeted';
      bucket[pool].push(Math.abs(after - before));
      cell[pool].push(Math.abs(after - before));
    }
  }
}

function summarizeSamples(s: Samples): AuditReport['byPerturbation'][PerturbationKind] {
  return {
    targeted: { n: s.targeted.length, meanDrop: mean(s.targeted) },
    untargeted: { n: s.untargeted.length, meanAbsDelta: mean(s.untargeted) },
    collateral: { n: s.collateral.length, meanAbsDelta: mean(s.collateral) },
    byCriterion: Object.fromEntries(
      [...s.byCriterion].map(([k, c]) => [
        k,
        { targeted: { n: c.targeted.length, meanDrop: mean(c.targeted) }, untargeted: { n: c.untargeted.length, meanAbsDelta: mean(c.untargeted) }, collateral: { n: c.collateral.length, meanAbsDelta: mean(c.collateral) } },
      ]),
    ),
  };
}

/** Audits the verifier on up to `max` trajectories against the environment image they ran on. */
export async function auditVerifier(image: Uint8Array, trajectories: readonly AuditTrajectory[], options: AuditOptions = {}): Promise<AuditReport> {
  const SQL = await loadSqlJs();
  const scorer = options.scorer ?? scoreRubric;
  const max = options.max ?? 20;
  const kinds: PerturbationKind[] = ['drop-table', 'drop-column', 'edit-values'];
  const samples = new Map<PerturbationKind, Samples>(kinds.map((k) => [k, { targeted: [], untargeted: [], collateral: [], byCriterion: new Map() }]));
  const report: AuditReport = {
    trajectories: 0,
    skippedTrajectories: [],
    perturbations: 0,
    skippedPerturbations: [],
    stepsNotReplayed: 0,
    stepsReplayed: 0,
    negativeTargetedSkipped: 0,
    answerKeysRederived: 0,
    answerKeysChanged: 0,
    answerKeysNotRederivable: 0,
    byPerturbation: {} as AuditReport['byPerturbation'],
    flags: [],
  };
  const counts = { replayed: 0, kept: 0 };

  const sampled = [...trajectories].sort((a, b) => a.trajectoryId.localeCompare(b.trajectoryId));
  for (const trajectory of sampled) {
    if (report.trajectories >= max) break;
    const rubric = trajectory.task.rubric ?? [];
    const planned = new Map<string, Perturbation>();
    for (const criterion of rubric) for (const p of perturbationsFor(criterion.check)) planned.set(`${p.kind}\u0000${p.table.toLowerCase()}\u0000${(p.column ?? '').toLowerCase()}`, p);
    if (planned.size === 0) {
      report.skippedTrajectories.push({ trajectoryId: trajectory.trajectoryId, reason: 'no rubric criterion anchors to a table or column' });
      continue;
    }
    report.trajectories++;
    const { answer, evidence } = trajectory.task;
    const rederivable = answer !== undefined && evidence !== undefined && evidence.length > 0 && evidence.every((e) => e.tool === 'run_sql');
    if (!rederivable) report.answerKeysNotRederivable++;
    // One pass per database state: replay the steps, re-derive the answer key, score against that schema.
    const scoreOn = (db: Database) => {
      const steps = replay(db, trajectory.steps, counts);
      const key = rederivable ? rederiveKey(db, answer!, evidence!) : undefined;
      // A task with Python steps still re-derives the sub-answers of its SQL prefix (the first query's result).
      const subKeys = evidence && evidence.length > 0 ? rederiveSubKeys(db, rubric, evidence) : new Map<number, AnswerKey>();
      return { result: scorer(withKey(rubric, key, subKeys), steps, trajectory.finalAnswer, schemaOf(db)), key, subKeys };
    };
    const baseRun = withDatabase(SQL, image, scoreOn);
    const base = criterionScores(baseRun.result);
    for (const p of planned.values()) {
      let perturbed: CriterionScores;
      let keyChanged = false;
      const subKeysChanged = new Set<number>();
      try {
        const run = withDatabase(SQL, image, (db) => {
          applyPerturbation(db, p);
          return scoreOn(db);
        });
        perturbed = criterionScores(run.result);
        if (run.key) {
          report.answerKeysRederived++;
          keyChanged = JSON.stringify(run.key) !== JSON.stringify(baseRun.key);
          if (keyChanged) report.answerKeysChanged++;
        }
        for (const [step, key] of run.subKeys) if (JSON.stringify(key) !== JSON.stringify(baseRun.subKeys.get(step))) subKeysChanged.add(step);
      } catch (error) {
        report.skippedPerturbations.push({ trajectoryId: trajectory.trajectoryId, perturbation: p, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      report.perturbations++;
      compareCriteria(report, samples.get(p.kind)!, trajectory, p, { base, perturbed, keyChanged, subKeysChanged });
    }
  }
  for (const kind of kinds) report.byPerturbation[kind] = summarizeSamples(samples.get(kind)!);
  report.stepsReplayed = counts.replayed;
  report.stepsNotReplayed = counts.kept;
  return report;
}

/** A few lines for a terminal. */
export function formatAuditReport(report: AuditReport): string {
  const f = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  const lines = [
    `audited ${report.trajectories} trajectories, ${report.perturbations} perturbations (${report.stepsReplayed} SQL / describe_table steps replayed, ${report.stepsNotReplayed} other steps kept as recorded; ${report.negativeTargetedSkipped} confuser-criterion checks left out)`,
    `answer key re-derived from the perturbed evidence after ${report.answerKeysRederived} perturbations (${report.answerKeysChanged} changed it); ${report.answerKeysNotRederivable} trajectories without re-derivable SQL evidence kept their key`,
  ];
  for (const [kind, cell] of Object.entries(report.byPerturbation)) {
    lines.push(`${kind}: targeted mean drop ${f(cell.targeted.meanDrop)} (n=${cell.targeted.n}); untargeted mean |Δ| ${f(cell.untargeted.meanAbsDelta)} (n=${cell.untargeted.n}); collateral mean |Δ| ${f(cell.collateral.meanAbsDelta)} (n=${cell.collateral.n})`);
    for (const [criterion, c] of Object.entries(cell.byCriterion)) lines.push(`  ${criterion}: targeted ${f(c.targeted.meanDrop)} (n=${c.targeted.n}); untargeted ${f(c.untargeted.meanAbsDelta)} (n=${c.untargeted.n}); collateral ${f(c.collateral.meanAbsDelta)} (n=${c.collateral.n})`);
  }
  lines.push(report.flags.length ? `${report.flags.length} criteria did not move when their evidence was removed (or a value edit changed their answer key):` : 'no criterion ignored the removal of its evidence or a change of its answer key');
  for (const flag of report.flags.slice(0, 10)) lines.push(`  ${flag.trajectoryId} ${flag.criterionId} (${flag.criterionKind}) under ${flag.perturbation.kind} ${flag.perturbation.table}${flag.perturbation.column ? '.' + flag.perturbation.column : ''}`);
  for (const s of report.skippedPerturbations.slice(0, 5)) lines.push(`skipped ${s.perturbation.kind} ${s.perturbation.table}${s.perturbation.column ? '.' + s.perturbation.column : ''} (${s.trajectoryId}): ${s.reason}`);
  return lines.join('\n');
}

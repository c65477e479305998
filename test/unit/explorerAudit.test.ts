import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CliError } from '../../src/cli/command';
import { auditCommand } from '../../src/cli/commands/audit';
import { loadEnvironment } from '../../src/core/env/index';
import { RubricScorer, auditVerifier, formatAuditReport } from '../../src/core/explorer/audit';
import { rubricResultOf, scoreRubric } from '../../src/core/explorer/verifier';
import { trajectoriesFromRun } from '../../src/core/export/runAdapter';
import { synthesize } from '../../src/core/run/synthesize';
import { RETAIL_SAMPLE } from './exportFixture';

describe('verifier audit (perturb the anchored evidence, replay, re-score)', function () {
  this.timeout(300_000);
  let work: string;
  let dataFolder: string;
  let runDir: string;
  let image: Uint8Array;

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-audit-'));
    dataFolder = path.join(work, 'retail');
    fs.cpSync(RETAIL_SAMPLE, dataFolder, { recursive: true });
    runDir = path.join(work, 'run');
    await synthesize({ folder: dataFolder, tasks: 4, outDir: runDir, costModelFile: null, seed: 3 });
    image = (await loadEnvironment(dataFolder)).image;
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('removing a table or column drops its targeted criteria and leaves untargeted ones still', async () => {
    const { trajectories } = trajectoriesFromRun(runDir);
    const report = await auditVerifier(image, trajectories, { max: 6 });
    assert.ok(report.trajectories > 0 && report.trajectories <= 6);
    assert.ok(report.stepsReplayed > 0);
    for (const kind of ['drop-table', 'drop-column'] as const) {
      const cell = report.byPerturbation[kind];
      assert.ok(cell.targeted.n > 0 && cell.untargeted.n > 0, `${kind} has targeted and untargeted samples`);
      assert.ok(cell.targeted.meanDrop! >= 0.3, `${kind} targeted drop ${cell.targeted.meanDrop}`);
      assert.ok(cell.untargeted.meanAbsDelta! <= 0.05, `${kind} untargeted |Δ| ${cell.untargeted.meanAbsDelta}`);
    }
    // Value edits move the answer criteria (re-checked against the key re-derived from the edited evidence);
    // the name-based checks stay still, and the report says so per criterion kind.
    const edits = report.byPerturbation['edit-values'];
    assert.ok(report.answerKeysChanged > 0 && report.answerKeysChanged <= report.answerKeysRederived);
    assert.ok(edits.byCriterion.final_value.targeted.n > 0 && edits.byCriterion.final_value.targeted.meanDrop! >= 0.3, `final_value under value edits: ${JSON.stringify(edits.byCriterion.final_value)}`);
    assert.ok((edits.untargeted.meanAbsDelta ?? 0) <= 0.05);
    assert.equal(edits.byCriterion.uses_column.targeted.meanDrop, 0);
    assert.match(formatAuditReport(report), /edit-values: targeted mean drop/);
    // The missing-column-as-string-literal gap is closed: no uses_column criterion survives its column's removal.
    assert.ok(!report.flags.some((f) => f.criterionKind === 'uses_column'), JSON.stringify(report.flags));
  });

  it('flags a verifier stub that ignores its evidence', async () => {
    const { trajectories } = trajectoriesFromRun(runDir);
    const stub: RubricScorer = (rubric) =>
      rubricResultOf(rubric.map((c) => ({ id: c.id, kind: c.check.kind, holds: c.polarity === 'positive', weight: c.weight, polarity: c.polarity })));
    const report = await auditVerifier(image, trajectories, { max: 6, scorer: stub });
    assert.equal(report.byPerturbation['drop-table'].targeted.meanDrop, 0);
    assert.ok(report.flags.length >= report.byPerturbation['drop-table'].targeted.n, 'every satisfied targeted criterion is flagged');
    assert.ok(report.flags.some((f) => f.perturbation.kind === 'drop-table'));
    const real = await auditVerifier(image, trajectories, { max: 6 });
    assert.ok(real.flags.length < report.flags.length);
  });

  it('flags a verifier whose answer check ignores the answer key (value edits)', async () => {
    const { trajectories } = trajectoriesFromRun(runDir);
    // Real on everything but final_value, which holds whenever there is an answer at all.
    const ignoresKey: RubricScorer = (rubric, steps, finalAnswer, environment) => {
      const real = scoreRubric(rubric, steps, finalAnswer, environment);
      return rubricResultOf(real.criteria.map((c) => (c.kind === 'final_value' ? { ...c, holds: finalAnswer !== undefined } : c)));
    };
    const report = await auditVerifier(image, trajectories, { max: 6, scorer: ignoresKey });
    assert.equal(report.byPerturbation['edit-values'].byCriterion.final_value.targeted.meanDrop, 0);
    assert.ok(report.flags.some((f) => f.perturbation.kind === 'edit-values' && f.criterionKind === 'final_value'));
  });

  it('toffee audit writes the report and rejects a folder that is not a run', async () => {
    const out: string[] = [];
    const log = console.log;
    const error = console.error;
    console.log = (...args: unknown[]) => out.push(args.join(' '));
    console.error = () => undefined;
    try {
      const code = await auditCommand.run([runDir, '--max', '3', '--out', path.join(work, 'audit.json')]);
      assert.ok(code === 0 || code === 4);
      const saved = JSON.parse(fs.readFileSync(path.join(work, 'audit.json'), 'utf8')) as { trajectories: number; flags: unknown[] };
      assert.ok(saved.trajectories > 0 && saved.trajectories <= 3);
      assert.equal(code, saved.flags.length > 0 ? 4 : 0);
      assert.match(out.join('\n'), /drop-table: targeted mean drop/);
      await assert.rejects(auditCommand.run([work]), CliError);
      await assert.rejects(auditCommand.run([runDir, '--max', '0']), (e: unknown) => e instanceof CliError && e.exitCode === 2);
    } finally {
      console.log = log;
      console.error = error;
    }
  });
});

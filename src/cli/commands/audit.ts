import * as fs from 'node:fs';
import * as path from 'node:path';
import { auditVerifier, formatAuditReport } from '../../core/explorer/audit';
import { trajectoriesFromRun } from '../../core/export/runAdapter';
import { CliError, parseCommandArgs, type CliCommand } from '../command';
import { resolveRunDir } from '../command';
import { loadRunEnvironment } from './export';

const USAGE = `Usage: toffee audit <runDir> [--max N] [--data DIR] [--out FILE] [--json]

Audits the rubric verifier on the run's admitted trajectories: for each criterion anchored to a table or column,
drops that table, drops that column, or alters its values in a copy of the environment image, replays the
trajectory's SQL steps against it and re-scores. Reports, per perturbation and criterion kind, the mean score drop
of targeted criteria and the mean |Δ| of untargeted ones, and flags criteria that did not move when their
evidence was removed (exit code 4 when any is flagged).

Options:
  --max N        most trajectories audited (default 20)
  --data DIR     the data folder, when it moved since the run (default: the run's)
  --out FILE     also write the report as JSON (default <runDir>/audit.json)
  --json         print the report as JSON`;

export const auditCommand: CliCommand = {
  name: 'audit',
  summary: 'Audit the verifier: perturb the evidence each rubric criterion anchors to and re-score',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, { max: { type: 'string' }, data: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean', default: false } }, USAGE);
    const { values, positionals } = parsed;
    if (positionals.length !== 1) throw new CliError(`expected one run folder\n${USAGE}`, 2);
    const max = values.max === undefined ? 20 : Number(values.max);
    if (!Number.isInteger(max) || max < 1) throw new CliError(`--max must be a whole number ≥ 1, not '${values.max}'`, 2);
    const runDir = resolveRunDir(positionals[0]);
    const run = trajectoriesFromRun(runDir);
    for (const warning of run.warnings) console.error(`warning: ${warning}`);
    if (run.trajectories.length === 0) throw new CliError(`the run has no admitted trajectories to audit (${runDir})`);
    const env = await loadRunEnvironment(run.dataFolder, values.data);
    const report = await auditVerifier(env.image, run.trajectories, { max });
    const outFile = path.resolve(values.out ?? path.join(runDir, 'audit.json'));
    fs.writeFileSync(outFile, JSON.stringify(report, null, 2) + '\n');
    console.log(values.json ? JSON.stringify(report, null, 2) : `${formatAuditReport(report)}\nreport: ${outFile}`);
    if (report.trajectories === 0) throw new CliError('no trajectory had a rubric criterion anchored to a table or column; nothing was audited', 3);
    return report.flags.length > 0 ? 4 : 0;
  },
};

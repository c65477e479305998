import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CliError } from '../../src/cli/command';
import { profileCommand } from '../../src/cli/commands/profile';
import { makeFolder } from '../support/envFixtures';

/** Runs the command with console.log captured. */
async function runProfile(argv: string[]): Promise<{ code: number; output: string }> {
  const lines: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => lines.push(args.join(' '));
  try {
    const code = await profileCommand.run(argv);
    return { code, output: lines.join('\n') };
  } finally {
    console.log = original;
  }
}

describe('env: toffee profile', () => {
  it('prints tables, what each column means, documents and diagnostics as a readable table', async () => {
    const folder = makeFolder({ 'orders.csv': 'id,total\n1,9.5\n2,3\n3\n', 'rules.md': '# Rules\n\n## Refunds\ntext\n' });
    try {
      const { code, output } = await runProfile([folder.root]);
      assert.equal(code, 0);
      assert.match(output, /^orders\s+table\s+3\s+2\s+orders\.csv$/m);
      // role · aggregation, aggregation, (no unit), nulls, distinct, min, max, samples, the rule that decided it
      assert.match(output, /^\s+total\s+real\s+measure · sum\s+sum\s+33\.3%\s+2\s+3\s+9\.5\s+9\.5, 3\s+rule measure:name/m);
      assert.match(output, /^\s+id\s+integer\s+identifier · primary key\s+count-distinct\s/m);
      assert.match(output, /^Relationships \(0\)$/m);
      assert.match(output, /^rules\.md\s+Rules\s+\d+\s+2$/m);
      assert.match(output, /warning orders\.csv:4 {2}1 row\(s\) have a different number of fields/);
    } finally {
      folder.cleanup();
    }
  });

  it('prints { tables, documents, diagnostics, files, semantics } with --json', async () => {
    const folder = makeFolder({ 'a.jsonl': '{"x": 1}\n{"x": 2}\n' });
    try {
      const { code, output } = await runProfile([folder.root, '--json']);
      assert.equal(code, 0);
      const parsed = JSON.parse(output);
      assert.deepEqual(Object.keys(parsed).sort(), ['diagnostics', 'documents', 'files', 'root', 'semantics', 'tables']);
      assert.equal(parsed.tables[0].name, 'a');
      assert.deepEqual(parsed.semantics.columns.map((c: { column: string; role: { value: string; source: { rule: string } } }) => [c.column, c.role.value]), [['x', 'measure']]);
      assert.equal(parsed.tables[0].rowCount, 2);
      assert.equal(parsed.files[0].sha256.length, 64);
    } finally {
      folder.cleanup();
    }
  });

  it('fails with a one-line reason for a missing folder, a file, and a folder with nothing loadable', async () => {
    const folder = makeFolder({ 'noise.csv': Buffer.from([0, 1, 2, 3, 255, 254]), 'empty.json': '' });
    try {
      await assert.rejects(runProfile([path.join(folder.root, 'nope')]), (e: CliError) => e instanceof CliError && /folder not found/.test(e.message));
      await assert.rejects(runProfile([path.join(folder.root, 'noise.csv')]), (e: CliError) => /not a folder/.test(e.message));
      await assert.rejects(runProfile([folder.root]), (e: CliError) => e instanceof CliError && /nothing loadable .*2 file\(s\), 2 problem\(s\)/.test(e.message));
      await assert.rejects(runProfile([]), (e: CliError) => e.exitCode === 2);
    } finally {
      folder.cleanup();
    }
  });
});

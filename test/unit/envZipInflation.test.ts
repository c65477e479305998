import * as assert from 'node:assert/strict';
import { loadEnvironment } from '../../src/core/env/index';
import { checkZipInflation } from '../../src/core/env/zipInflation';
import { makeFolder, queryImage } from '../support/envFixtures';
import { sheetXml, writeZip, xlsxParts } from '../support/zipWriter';

/** Sheet XML that deflates about a thousandfold: the same row, over and over. */
function bombSheet(rows: number): Buffer {
  const head = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row><c t="inlineStr"><is><t>name</t></is></c></row>';
  return Buffer.from(head + '<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c></row>'.repeat(rows) + '</sheetData></worksheet>');
}

describe('env: xlsx inflation is bounded', function () {
  this.timeout(60_000);

  it('refuses a zip-bomb workbook before reading it, and loads the other files', async () => {
    const bomb = writeZip(xlsxParts(bombSheet(700_000)));
    assert.ok(bomb.length < 200_000, `${bomb.length} bytes`);
    const folder = makeFolder({ 'bomb.xlsx': bomb, 'good.xlsx': writeZip(xlsxParts(sheetXml(20))), 'ok.csv': 'a\n1\n' });
    try {
      const env = await loadEnvironment(folder.root);
      assert.deepEqual(env.profile.tables.map((t) => t.name).sort(), ['good', 'ok']);
      assert.equal((await queryImage(env.image, 'SELECT count(*) FROM good'))[0][0], 20);
      const diagnostic = env.profile.diagnostics.find((d) => d.file === 'bomb.xlsx');
      assert.equal(diagnostic?.severity, 'error');
      assert.match(diagnostic!.message, /^The workbook is not read: its parts inflate to \d+ MiB by their own account, over the limit of 32 MiB for this 0\.\d MiB file .*a zip bomb/);
    } finally {
      folder.cleanup();
    }
  });

  it('does not trust the sizes an archive declares: it counts what inflates, and stops at the limit', async () => {
    const folder = makeFolder({ 'liar.xlsx': writeZip(xlsxParts(bombSheet(700_000)), { 'xl/worksheets/sheet1.xml': 1000 }) });
    try {
      const verdict = await checkZipInflation(`${folder.root}/liar.xlsx`);
      assert.equal(verdict.ok, false);
      assert.match((verdict as { reason: string }).reason, /inflate to more than 32 MiB, though they declare 0\.0 MiB/);
    } finally {
      folder.cleanup();
    }
  });

  it('lets an ordinary workbook through and measures it', async () => {
    const folder = makeFolder({ 'plain.xlsx': writeZip(xlsxParts(sheetXml(5000))) });
    try {
      const verdict = await checkZipInflation(`${folder.root}/plain.xlsx`);
      assert.equal(verdict.ok, true);
      assert.ok(((verdict as { inflatedBytes: number }).inflatedBytes) > sheetXml(5000).length);
    } finally {
      folder.cleanup();
    }
  });
});

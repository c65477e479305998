import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { loadEnvironment } from '../../src/core/env/index';
import type { DataEnvironment } from '../../src/core/env/types';
import { hasUnconventionalPrefixes, withConventionalPrefixes } from '../../src/core/env/xlsxNamespaces';
import { loadFiles, queryImage } from '../support/envFixtures';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const load = loadFiles;

/**
 * What Python's ElementTree writes when it re-serialises a part it parsed without registering the namespaces:
 * every element of the part's default namespace under `ns0:`, every other namespace under `ns1:`, `ns2:`…
 * (computed by walking the declarations, so the test does not depend on the code under test).
 */
function elementTreeStyle(xml: string): string {
  const declared = new Map<string, string>();
  for (const m of xml.matchAll(/\sxmlns(?::([\w.-]+))?="([^"]*)"/g)) if (!declared.has(m[1] ?? '')) declared.set(m[1] ?? '', m[2]);
  const renamed = new Map<string, string>();
  let n = 0;
  for (const [prefix] of declared) if (prefix !== 'xml') renamed.set(prefix, `ns${n++}`);
  const rename = (qname: string) => {
    const at = qname.indexOf(':');
    const prefix = at < 0 ? '' : qname.slice(0, at);
    const local = at < 0 ? qname : qname.slice(at + 1);
    return prefix === 'xml' || !renamed.has(prefix) ? qname : `${renamed.get(prefix)}:${local}`;
  };
  let body = xml.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/\sxmlns(?::[\w.-]+)?="[^"]*"/g, '');
  body = body.replace(/<(\/?)([\w.:-]+)((?:\s+[\w.:-]+="[^"]*")*)\s*(\/?)>/g, (_all, close: string, name: string, attributes: string, self: string) => {
    const attrs = attributes.replace(/\s+([\w.:-]+)="([^"]*)"/g, (_a, attrName: string, value: string) => ` ${attrName.includes(':') ? rename(attrName) : attrName}="${value}"`);
    return `<${close}${rename(name)}${attrs}${self ? ' /' : ''}>`;
  });
  const declarations = [...renamed].map(([prefix, to]) => ` xmlns:${to}="${declared.get(prefix)}"`).join('');
  return body.replace(/^<([\w.:-]+)/, `<$1${declarations}`);
}

describe('env: XLSX parts written with other namespace prefixes', () => {
  it('rewrites a part to the prefixes Excel writes, keeping elements, attributes and text', () => {
    const written = `<s:workbook xmlns:r="${REL}" xmlns:s="${MAIN}"><s:sheets><s:sheet name="A &amp; B" sheetId="1" r:id="rId1" /></s:sheets></s:workbook>`;
    assert.equal(hasUnconventionalPrefixes(written), true);
    const normal = withConventionalPrefixes(written);
    assert.equal(normal, `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="A &amp; B" sheetId="1" r:id="rId1"/></sheets></workbook>`);
    assert.equal(hasUnconventionalPrefixes(normal), false);
    // ElementTree's ns0:/ns1: for the same part, a namespace the table does not know kept under its own prefix.
    const tree = `<ns0:worksheet xmlns:ns0="${MAIN}" xmlns:ns1="${REL}" xmlns:x="urn:example"><ns0:sheetData><ns0:row r="1"><ns0:c r="A1" t="inlineStr"><ns0:is><ns0:t xml:space="preserve"> a&lt;b </ns0:t></ns0:is></ns0:c></ns0:row></ns0:sheetData><x:ext ns1:id="rId2"/></ns0:worksheet>`;
    assert.equal(
      withConventionalPrefixes(tree),
      `<worksheet xmlns="${MAIN}" xmlns:r="${REL}" xmlns:x="urn:example"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t xml:space="preserve"> a&lt;b </t></is></c></row></sheetData><x:ext r:id="rId2"/></worksheet>`,
    );
    // Excel's own parts are left alone.
    assert.equal(hasUnconventionalPrefixes(`<worksheet xmlns="${MAIN}" xmlns:r="${REL}" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">`), false);
    assert.throws(() => withConventionalPrefixes('<ns0:a xmlns:ns0="urn:x"><ns0:b></ns0:a>'));
  });

  it('loads a workbook whose every XML part was re-serialised the ElementTree way, with its header names and values', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Elections');
    sheet.addRow(['Country', 'Election date', 'Vote share', 'Seats']);
    sheet.addRow(['AUT', new Date(Date.UTC(2019, 8, 29)), 37.5, 71]);
    sheet.addRow(['BEL', new Date(Date.UTC(2019, 4, 26)), 16.0, 25]);
    workbook.addWorksheet('Notes').addRow(['Line']).worksheet.addRow(['Shares in percent']);
    const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
    let rewritten = 0;
    for (const name of Object.keys(zip.files)) {
      if (!/\.(xml|rels)$/.test(name) || name.startsWith('xl/theme/')) continue;
      const xml = await zip.file(name)!.async('string');
      const tree = elementTreeStyle(xml);
      if (tree !== xml) rewritten++;
      zip.file(name, tree);
    }
    assert.ok(rewritten >= 6, `rewrote ${rewritten} parts`);
    const file = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    // As written, ExcelJS itself cannot read it.
    await assert.rejects(new ExcelJS.Workbook().xlsx.load(file as unknown as ExcelJS.Buffer), /Unexpected xml node/);

    const env = await load({ 'votes.xlsx': file });
      assert.deepEqual(env.profile.diagnostics.filter((d) => d.severity !== 'info'), []);
      const info = env.profile.diagnostics.find((d) => /other prefixes than Excel's/.test(d.message));
      assert.ok(info, JSON.stringify(env.profile.diagnostics));
      assert.match(info.message, /xl\/workbook\.xml/);
      const elections = env.profile.tables.find((t) => t.name === 'votes_elections');
      assert.ok(elections, env.profile.tables.map((t) => t.name).join(', '));
      assert.deepEqual(elections.columns.map((c) => [c.name, c.type]), [
        ['country', 'text'],
        ['election_date', 'date'],
        ['vote_share', 'real'],
        ['seats', 'integer'],
      ]);
      assert.deepEqual(await queryImage(env.image, 'SELECT country, election_date, vote_share, seats FROM votes_elections ORDER BY country'), [
        ['AUT', '2019-09-29', 37.5, 71],
        ['BEL', '2019-05-26', 16, 25],
      ]);
      assert.deepEqual(await queryImage(env.image, 'SELECT line FROM votes_notes'), [['Shares in percent']]);
  });

  it('reads all five sheets of the vendored ParlGov workbook (written with ns0:/s: prefixes) as tables with their header names', async function () {
    this.timeout(120_000);
    const folder = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public', 'parlgov-elections', 'data');
    const env = await loadEnvironment(folder);
      assert.deepEqual(env.profile.diagnostics.filter((d) => d.file === 'parlgov.xlsx' && d.severity !== 'info'), []);
      const sheets = env.profile.tables.filter((t) => t.sourceFile === 'parlgov.xlsx');
      assert.deepEqual(sheets.map((t) => [t.originalName, t.name]), [
        ['party', 'parlgov_party'],
        ['election', 'parlgov_election'],
        ['cabinet', 'parlgov_cabinet'],
        ['variable', 'parlgov_variable'],
        ['readme', 'parlgov_readme'],
      ]);
      // The party and election sheets are the CSV views of the same name: the same columns and rows.
      for (const [sheet, csv] of [
        ['parlgov_party', 'view_party'],
        ['parlgov_election', 'view_election'],
      ]) {
        const a = sheets.find((t) => t.name === sheet)!;
        const b = env.profile.tables.find((t) => t.name === csv)!;
        assert.deepEqual(a.columns.map((c) => c.name), b.columns.map((c) => c.name), sheet);
        assert.equal(a.rowCount, b.rowCount, sheet);
      }
      const cabinet = sheets.find((t) => t.name === 'parlgov_cabinet')!;
      assert.ok(cabinet.rowCount > 10_000, String(cabinet.rowCount));
      for (const name of ['cabinet_name', 'start_date', 'caretaker', 'cabinet_party', 'prime_minister', 'cabinet_id', 'party_id']) {
        assert.ok(cabinet.columns.some((c) => c.name === name), `${name} in ${cabinet.columns.map((c) => c.name).join(', ')}`);
      }
      assert.equal(cabinet.columns.find((c) => c.name === 'start_date')!.type, 'date');
      assert.deepEqual(sheets.find((t) => t.name === 'parlgov_variable')!.columns.map((c) => c.name), ['table_name', 'type', 'name', 'description', 'comment']);
  });
});

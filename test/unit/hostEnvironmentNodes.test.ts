// The Data Environment tree's content, built from profiles of real folders loaded by the env loader.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadEnvironment } from '../../src/core/env';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';
import type { EnvironmentProfile } from '../../src/core/env/types';
import { execFileSync } from 'node:child_process';
import { previewTable, readEnvironmentFacts } from '../../src/host/environmentFacts';
import { buildEnvironmentNodes, describeDiagnostics, headingLine, type EnvironmentNode } from '../../src/host/environmentNodes';
import { buildTablePreviewHtml } from '../../src/host/tablePreviewHtml';

function child(node: EnvironmentNode, label: string): EnvironmentNode {
  const found = node.children.find((c) => c.label === label);
  assert.ok(found, `no "${label}" under "${node.label}": ${node.children.map((c) => c.label).join(', ')}`);
  return found;
}

function allIds(node: EnvironmentNode): string[] {
  return [node.id, ...node.children.flatMap(allIds)];
}

describe('host: Data Environment tree nodes', function () {
  let dir: string;
  let profile: EnvironmentProfile;

  before(async function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toffee-host-nodes-'));
    const folder = path.join(dir, 'shop');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'orders.csv'), 'order_id,customer,total\n1,ann,10.5\n2,bob,3\n3,ann,7.25\n');
    fs.writeFileSync(path.join(folder, 'rules.md'), '# Shop rules\n\nText.\n\n## Refunds\n\nWithin 30 days.\n');
    fs.writeFileSync(path.join(folder, 'broken.csv'), Buffer.from([0, 159, 146, 150, 0, 255, 1, 2, 3, 0, 10, 0, 200]));
    profile = (await loadEnvironment(folder)).profile;
  });

  after(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the root after the folder and groups tables, documents and diagnostics', function () {
    const root = buildEnvironmentNodes(profile);
    assert.equal(root.label, 'shop');
    assert.equal(root.icon, 'root-folder');
    assert.deepEqual(root.children.map((c) => c.label), ['Tables', 'Documents', 'Diagnostics']);
    assert.equal(child(root, 'Tables').description, String(profile.tables.length));
  });

  it('shows a table with its row count, source file and typed columns; only the identifier is a key', function () {
    const tables = child(buildEnvironmentNodes(profile), 'Tables');
    const orders = tables.children.find((t) => t.tooltip?.includes('source: orders.csv'));
    assert.ok(orders, 'no table from orders.csv');
    assert.equal(orders.description, '3 rows');
    assert.equal(orders.icon, 'table');
    assert.deepEqual(orders.action, { kind: 'previewTable', table: orders.label });
    // total is unique and non-null in three rows too, but a unique measure is not a key.
    assert.deepEqual(
      orders.children.map((c) => [c.label, c.description, c.icon]),
      [
        ['order_id', 'integer · key', 'key'],
        ['customer', 'text', 'symbol-field'],
        ['total', 'real', 'symbol-field'],
      ],
    );
    assert.match(child(orders, 'total').tooltip ?? '', /unique and non-null here \(not a key\)/);
  });

  it('marks a declared primary key and binary columns from the image; a unique name or date is no key', async function () {
    const folder = path.join(dir, 'crm');
    fs.mkdirSync(folder);
    execFileSync('sqlite3', [path.join(folder, 'crm.sqlite')], {
      input: [
        'CREATE TABLE employees (EmployeeRef INTEGER PRIMARY KEY, LastName TEXT NOT NULL, BirthDate TEXT NOT NULL, Photo BLOB);',
        "INSERT INTO employees VALUES (7, 'Adams', '1962-02-18', x'89504e47'), (9, 'Baker', '1958-12-08', x'ffd8ffe0'), (12, 'Chen', '1973-08-29', NULL);",
        'CREATE TABLE visits (visit_id INTEGER NOT NULL, ordered_at TEXT NOT NULL);',
        "INSERT INTO visits VALUES (1, '2024-01-01 10:00'), (2, '2024-01-02 11:00'), (3, '2024-01-03 12:30');",
      ].join('\n'),
    });
    const env = await loadEnvironment(folder);
    const facts = await readEnvironmentFacts(env.image, env.profile);
    const tables = child(buildEnvironmentNodes(env.profile, { facts }), 'Tables');
    const employees = child(tables, 'employees');
    const columns = Object.fromEntries(employees.children.map((c) => [c.label, [c.description, c.icon]]));
    assert.deepEqual(columns, {
      EmployeeRef: ['integer · primary key', 'key'],
      LastName: ['text', 'symbol-field'],
      BirthDate: [columns.BirthDate[0], 'symbol-field'],
      Photo: ['binary', 'file-binary'],
    });
    assert.ok(!String(columns.BirthDate[0]).includes('key'), 'a unique birth date is not a key');
    assert.match(child(employees, 'EmployeeRef').tooltip ?? '', /primary key, declared by the source/);
    const visits = child(tables, 'visits');
    assert.deepEqual(visits.children.map((c) => c.icon), ['key', 'symbol-field'], 'visit_id keys visits; ordered_at does not');
    // The preview reads the first rows as text, blobs by their size, NULL as null.
    const preview = await previewTable(env.image, 'employees', 2);
    assert.deepEqual(preview.columns, ['EmployeeRef', 'LastName', 'BirthDate', 'Photo']);
    assert.equal(preview.totalRows, 3);
    assert.deepEqual(preview.rows, [['7', 'Adams', '1962-02-18', '<4 bytes>'], ['9', 'Baker', '1958-12-08', '<4 bytes>']]);
  });

  it('with the semantic profile, shows what each column means and keys the table by its primary key', async function () {
    const env = await loadSemanticEnvironment(path.resolve(__dirname, '../../../media/samples/retail'));
    const facts = await readEnvironmentFacts(env.image, env.profile);
    const tables = child(buildEnvironmentNodes(env.profile, { facts, semantics: env.semantics }), 'Tables');
    const orders = child(tables, 'orders');
    const shown = Object.fromEntries(orders.children.map((c) => [c.label, [c.description, c.icon]]));
    assert.deepEqual(shown.order_id, ['text · identifier · primary key', 'key']);
    assert.deepEqual(shown.store_id, ['text · identifier → stores.store_id', 'symbol-field']);
    assert.deepEqual(shown.ordered_at, ['datetime · time · datetime', 'symbol-field'], 'a unique timestamp is time, not a key');
    assert.deepEqual(shown.order_total, ['real · measure · sum', 'symbol-field']);
    assert.match(child(orders, 'order_total').tooltip ?? '', /meaning: measure · sum \(aggregate with sum\)\nwhy: .+ — rule /);
    assert.match(orders.tooltip ?? '', /kind: fact — /);
    // For every table, the key icons are exactly the columns the profile calls the primary key (or the source declared).
    for (const table of tables.children) {
      const keys = env.semantics.columns.filter((c) => c.table === table.label && c.identifier === 'primary-key').map((c) => c.column);
      const declared = facts.primaryKeys.get(table.label) ?? [];
      assert.deepEqual(table.children.filter((c) => c.icon === 'key').map((c) => c.label), declared.length ? declared : keys, `keys of ${table.label}`);
    }
  });

  it('lists the relationships and the partitions of the semantic profile, each opening its table or union view', async function () {
    const env = await loadSemanticEnvironment(path.resolve(__dirname, '../../../media/samples/retail'));
    const root = buildEnvironmentNodes(env.profile, { semantics: env.semantics });
    const relationships = child(root, 'Relationships');
    assert.equal(relationships.children.length, env.semantics.relationships.length);
    const line = relationships.children.find((n) => n.label === 'order_items.order_id → orders.order_id');
    assert.ok(line, relationships.children.map((n) => n.label).join('\n'));
    assert.match(line.description ?? '', /^many-to-one · \d+% found$/);
    assert.deepEqual(line.action, { kind: 'previewTable', table: 'order_items' });
    assert.ok(!root.children.some((n) => n.label === 'Partitions'), 'the sample has no partitioned files');

    const seasons = await loadSemanticEnvironment(path.resolve(__dirname, '../../../test/fixtures/public/football-premier-league'));
    const partitions = child(buildEnvironmentNodes(seasons.profile, { semantics: seasons.semantics }), 'Partitions');
    const [partition] = partitions.children;
    const view = seasons.semantics.partitions[0].view!;
    assert.match(partition.description ?? '', new RegExp(`^30 files by season · view ${view}$`));
    assert.deepEqual(partition.action, { kind: 'previewTable', table: view });
  });

  it('renders the preview grid as escaped text behind a CSP without scripts', function () {
    const html = buildTablePreviewHtml(
      { table: 'notes', columns: ['id', 'text'], rows: [['1', '<img src=x onerror=alert(1)>'], ['2', null]], totalRows: 5 },
      [{ name: 'id', type: 'integer' }, { name: 'text', type: 'text' }],
      { nonce: 'abcdefghijklmnopqrstuv==', source: 'notes.csv' },
    );
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
    assert.ok(!html.includes('<img'));
    assert.ok(!/<script/i.test(html));
    assert.match(html, /script-src (&#39;|')none(&#39;|')/);
    assert.match(html, /the first 2 of 5 rows · from notes\.csv · read-only/);
    assert.match(html, /<td class="null">NULL<\/td>/);
    assert.throws(() => buildTablePreviewHtml({ table: 't', columns: [], rows: [], totalRows: 0 }, [], { nonce: 'short' }), /nonce/);
  });

  it('lists a document under its title with its headings, each opening the document at its line', function () {
    const documents = child(buildEnvironmentNodes(profile), 'Documents');
    const rules = child(documents, 'Shop rules');
    assert.equal(rules.description, 'rules.md');
    assert.deepEqual(rules.children.map((h) => h.label), ['Shop rules', 'Refunds']);
    assert.deepEqual(child(rules, 'Refunds').action, { kind: 'openHeading', file: 'rules.md', heading: 'Refunds', occurrence: 0 });
    const text = fs.readFileSync(path.join(dir, 'shop', 'rules.md'), 'utf8');
    assert.equal(headingLine(text, 'Refunds'), 4);
    assert.equal(headingLine('Intro\n=====\n\n## Notes ##\n\n## Notes\n', 'Notes', 1), 5, 'the second heading of that text');
    assert.equal(headingLine('Intro\n=====\n', 'Intro'), 0, 'a setext heading');
    assert.equal(headingLine(text, 'Nowhere'), undefined);
  });

  it('groups diagnostics by file with the worst severity as the file icon', function () {
    const diagnostics = child(buildEnvironmentNodes(profile), 'Diagnostics');
    const broken = child(diagnostics, 'broken.csv');
    assert.ok(broken.icon === 'error' || broken.icon === 'warning', `icon ${broken.icon}`);
    assert.ok(broken.children.length >= 1);
    assert.ok(broken.children.every((d) => ['error', 'warning', 'info'].includes(d.icon)));
  });

  it('groups hand-made diagnostics by file, worst first, with line numbers', function () {
    const root = buildEnvironmentNodes({
      ...profile,
      diagnostics: [
        { file: 'b.csv', severity: 'warning', message: 'ragged row', line: 9 },
        { file: 'a.jsonl', severity: 'warning', message: 'bad line', line: 4 },
        { file: 'b.csv', severity: 'error', message: 'unterminated quote', line: 12 },
        { file: 'b.csv', severity: 'warning', message: 'ragged row', line: 3 },
      ],
    });
    const diagnostics = child(root, 'Diagnostics');
    assert.equal(diagnostics.icon, 'error');
    assert.deepEqual(diagnostics.children.map((f) => [f.label, f.icon, f.description]), [
      ['a.jsonl', 'warning', '1 problem'],
      ['b.csv', 'error', '3 problems'],
    ]);
    assert.deepEqual(child(child(diagnostics, 'b.csv'), 'unterminated quote').action, { kind: 'openFile', file: 'b.csv', line: 12 });
    assert.deepEqual(child(diagnostics, 'b.csv').children.map((d) => [d.label, d.description, d.icon]), [
      ['unterminated quote', 'line 12', 'error'],
      ['ragged row', 'line 3', 'warning'],
      ['ragged row', 'line 9', 'warning'],
    ]);
  });

  it('counts informational notes apart from problems', function () {
    const notes = [1, 2, 3].map((i) => ({ file: 'inventory.sqlite', severity: 'info' as const, message: `view ${i} was materialized` }));
    assert.equal(describeDiagnostics(notes), '3 notes');
    assert.equal(describeDiagnostics([...notes, { file: 'x.csv', severity: 'warning', message: 'ragged row', line: 2 }]), '1 problem · 3 notes');
    assert.equal(describeDiagnostics([]), 'none');
    const root = buildEnvironmentNodes({ ...profile, diagnostics: notes });
    assert.equal(child(root, 'Diagnostics').description, '3 notes');
    assert.equal(child(root, 'Diagnostics').icon, 'info');
  });

  it('shows a clean folder with a pass icon and gives every item a unique id', function () {
    const root = buildEnvironmentNodes({ ...profile, diagnostics: [] });
    assert.equal(child(root, 'Diagnostics').icon, 'pass');
    assert.equal(child(root, 'Diagnostics').children.length, 0);
    const ids = allIds(buildEnvironmentNodes(profile));
    assert.equal(new Set(ids).size, ids.length);
  });
});

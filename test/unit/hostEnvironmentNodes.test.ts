// The Data Environment tree's content, built from profiles of real folders loaded by the env loader.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadEnvironment } from '../../src/core/env';
import type { EnvironmentProfile } from '../../src/core/env/types';
import { buildEnvironmentNodes, type EnvironmentNode } from '../../src/host/environmentNodes';

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

  it('shows a table with its row count, source file and typed columns, keys marked', function () {
    const tables = child(buildEnvironmentNodes(profile), 'Tables');
    const orders = tables.children.find((t) => t.tooltip?.includes('source: orders.csv'));
    assert.ok(orders, 'no table from orders.csv');
    assert.equal(orders.description, '3 rows');
    assert.equal(orders.icon, 'table');
    assert.deepEqual(
      orders.children.map((c) => [c.label, c.description, c.icon]),
      [
        ['order_id', 'integer · key', 'key'],
        ['customer', 'text', 'symbol-field'],
        ['total', 'real · key', 'key'],
      ],
    );
  });

  it('lists a document under its title with its headings', function () {
    const documents = child(buildEnvironmentNodes(profile), 'Documents');
    const rules = child(documents, 'Shop rules');
    assert.equal(rules.description, 'rules.md');
    assert.deepEqual(rules.children.map((h) => h.label), ['Shop rules', 'Refunds']);
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
    assert.deepEqual(child(diagnostics, 'b.csv').children.map((d) => [d.label, d.description, d.icon]), [
      ['unterminated quote', 'line 12', 'error'],
      ['ragged row', 'line 3', 'warning'],
      ['ragged row', 'line 9', 'warning'],
    ]);
  });

  it('shows a clean folder with a pass icon and gives every item a unique id', function () {
    const root = buildEnvironmentNodes({ ...profile, diagnostics: [] });
    assert.equal(child(root, 'Diagnostics').icon, 'pass');
    assert.equal(child(root, 'Diagnostics').children.length, 0);
    const ids = allIds(buildEnvironmentNodes(profile));
    assert.equal(new Set(ids).size, ids.length);
  });
});

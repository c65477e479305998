import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Papa from 'papaparse';
import initSqlJs from 'sql.js';
import { generateRetailSample, RETAIL_PARAMETERS } from '../../scripts/makeSample';

type Row = Record<string, string>;

const EXPECTED_FILES = [
  'business_rules.md',
  'customers.csv',
  'inventory.sqlite',
  'marketing_campaigns.tsv',
  'order_items.csv',
  'orders.csv',
  'products.csv',
  'returns.jsonl',
  'stores.json',
  'suppliers.csv',
];

function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The sample's data files: hidden entries are skipped (a run writes its .toffee/ folder into the data folder). */
function dataFiles(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => !name.startsWith('.')).sort();
}

function hashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of dataFiles(dir)) out[name] = sha256(path.join(dir, name));
  return out;
}

function readTable(file: string, delimiter: string): Row[] {
  const text = fs.readFileSync(file, 'utf8').replace(/^\ufeff/, '');
  const parsed = Papa.parse<Row>(text, { header: true, delimiter, skipEmptyLines: true });
  assert.deepEqual(parsed.errors, [], `${path.basename(file)} parses without errors`);
  return parsed.data;
}

function pearson(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const daysBetween = (from: string, to: string): number => (Date.parse(`${to}Z`) - Date.parse(`${from}Z`)) / 86_400_000;

describe('retail sample generator (scripts/makeSample.ts)', function () {
  this.timeout(120_000);
  const temps: string[] = [];
  const tempDir = (label: string): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `toffee-sample-${label}-`));
    temps.push(dir);
    return dir;
  };
  let dir: string;

  before(async () => {
    dir = tempDir('main');
    await generateRetailSample(dir);
  });
  after(() => {
    for (const t of temps) fs.rmSync(t, { recursive: true, force: true });
  });

  describe('determinism and size', () => {
    it('writes the expected files, under 2 MB in total', () => {
      assert.deepEqual(dataFiles(dir), EXPECTED_FILES);
      const total = EXPECTED_FILES.reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
      assert.ok(total < 2 * 1024 * 1024, `total ${total} bytes`);
      assert.ok(total > 300_000, `total ${total} bytes is suspiciously small`);
    });

    it('gives byte-identical files for the same seed', async () => {
      const again = tempDir('again');
      await generateRetailSample(again);
      assert.deepEqual(hashes(again), hashes(dir));
    });

    it('gives different data for a different seed', async () => {
      const other = tempDir('other');
      await generateRetailSample(other, 7);
      const a = hashes(dir);
      const b = hashes(other);
      assert.notEqual(b['orders.csv'], a['orders.csv']);
      assert.notEqual(b['inventory.sqlite'], a['inventory.sqlite']);
    });

    it('matches the committed media/samples/retail (regenerate with `npm run sample`)', () => {
      // Compiled to <out>/test/unit/, so the repository root is three levels up.
      const committed = path.resolve(__dirname, '..', '..', '..', 'media', 'samples', 'retail');
      assert.ok(fs.existsSync(committed), `${committed} is missing; run npm run sample`);
      assert.deepEqual(hashes(committed), hashes(dir));
    });

    it('runs as a CLI with an output folder and seed, and rejects bad arguments', async () => {
      const script = path.resolve(__dirname, '..', '..', 'scripts', 'makeSample.js');
      const out = tempDir('cli');
      const run = (args: string[]) =>
        new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
          execFile(process.execPath, [script, ...args], (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
        });
      const ok = await run([out, '--seed', '42']);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /seed 42/);
      assert.deepEqual(dataFiles(out), EXPECTED_FILES);
      const bad = await run([out, '--seed', 'abc']);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /--seed needs a non-negative integer/);
    });
  });

  describe('content', () => {
    let customers: Row[];
    let products: Row[];
    let orders: Row[];
    let items: Row[];
    let suppliers: Row[];
    let campaigns: Row[];
    let stores: Array<Record<string, any>>;
    let returns: Array<Record<string, any>>;
    let inventory: { tables: string[]; views: string[]; query: (sql: string) => unknown[][] };

    before(async () => {
      customers = readTable(path.join(dir, 'customers.csv'), ',');
      products = readTable(path.join(dir, 'products.csv'), ',');
      orders = readTable(path.join(dir, 'orders.csv'), ',');
      items = readTable(path.join(dir, 'order_items.csv'), ',');
      suppliers = readTable(path.join(dir, 'suppliers.csv'), ';');
      campaigns = readTable(path.join(dir, 'marketing_campaigns.tsv'), '\t');
      stores = JSON.parse(fs.readFileSync(path.join(dir, 'stores.json'), 'utf8')).stores;
      returns = fs.readFileSync(path.join(dir, 'returns.jsonl'), 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
      const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') });
      const db = new SQL.Database(fs.readFileSync(path.join(dir, 'inventory.sqlite')));
      const query = (sql: string) => db.exec(sql)[0]?.values ?? [];
      inventory = {
        tables: query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((r) => String(r[0])),
        views: query("SELECT name FROM sqlite_master WHERE type = 'view'").map((r) => String(r[0])),
        query,
      };
    });

    it('has the intended sizes and formats', () => {
      assert.equal(new Set(customers.map((c) => c.customer_id)).size, RETAIL_PARAMETERS.customers);
      assert.equal(products.length, RETAIL_PARAMETERS.products);
      assert.equal(orders.length, RETAIL_PARAMETERS.orders);
      assert.ok(items.length > 7000 && items.length < 9500, `${items.length} order items`);
      assert.equal(stores.length, 12);
      assert.ok(returns.length > 150, `${returns.length} returns`);
      assert.ok(fs.readFileSync(path.join(dir, 'suppliers.csv')).subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), 'suppliers.csv starts with a BOM');
      assert.ok(products.some((p) => p.description.includes('\n')), 'a description with an embedded newline');
      assert.ok(orders.some((o) => o.notes.includes('\n') && o.notes.includes(',')), 'a note with a newline and a comma');
      assert.ok(customers.some((c) => c.street_address.includes(',')), 'an address with a comma');
      assert.ok(suppliers.some((s) => s.notes.includes(';')), 'a supplier note with a semicolon');
      for (const o of orders) assert.match(o.ordered_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      for (const c of customers) assert.match(c.loyalty_member, /^(true|false)$/);
      for (const p of products) assert.match(p.unit_price, /^\d+\.\d{2}$/);
      assert.ok(stores.every((s) => typeof s.address?.geo?.lat === 'number' && Array.isArray(s.staff) && s.staff.length > 0 && Array.isArray(s.tags)));
      assert.deepEqual(inventory.tables, ['stock movements', 'stock_levels', 'warehouses']);
      assert.deepEqual(inventory.views, ['low_stock']);
    });

    it('has missing values in several columns', () => {
      const missing = (rows: Row[], column: string) => rows.filter((r) => r[column] === '').length;
      assert.ok(missing(customers, 'email') > 0);
      assert.ok(missing(customers, 'phone') > 0);
      assert.ok(missing(customers, 'birth_year') > 0);
      assert.ok(missing(products, 'rating') > 0);
      assert.ok(missing(orders, 'payment_method') > 0);
      assert.ok(orders.some((o) => o.status === 'delivered' && o.shipped_at === ''), 'a delivered order without a ship scan');
      assert.ok(returns.some((r) => r.refund_amount === null));
    });

    it('shares real keys across files', () => {
      const customerIds = new Set(customers.map((c) => c.customer_id));
      const productIds = new Set(products.map((p) => p.product_id));
      const storeIds = new Set(stores.map((s) => s.store_id));
      const supplierIds = new Set(suppliers.map((s) => s.supplier_id));
      const campaignIds = new Set(campaigns.map((c) => c.campaign_id));
      const warehouseIds = new Set(inventory.query('SELECT warehouse_id FROM warehouses').map((r) => String(r[0])));
      const orderById = new Map(orders.map((o) => [o.order_id, o]));
      assert.equal(orderById.size, orders.length, 'order_id is unique');

      for (const o of orders) {
        assert.ok(customerIds.has(o.customer_id), `order ${o.order_id} customer ${o.customer_id}`);
        assert.ok(storeIds.has(o.store_id), `order ${o.order_id} store ${o.store_id}`);
        if (o.campaign_id !== '') assert.ok(campaignIds.has(o.campaign_id), `order ${o.order_id} campaign ${o.campaign_id}`);
      }
      assert.ok(orders.filter((o) => o.campaign_id !== '').length > 100, 'campaign attribution is used');
      const linesByOrder = new Map<string, Row[]>();
      for (const i of items) {
        assert.ok(orderById.has(i.order_id), `item ${i.order_item_id} order ${i.order_id}`);
        assert.ok(productIds.has(i.product_id), `item ${i.order_item_id} product ${i.product_id}`);
        linesByOrder.set(i.order_id, [...(linesByOrder.get(i.order_id) ?? []), i]);
      }
      assert.equal(linesByOrder.size, orders.length, 'every order has lines');
      for (const p of products) if (p.supplier_id !== '') assert.ok(supplierIds.has(p.supplier_id), `product ${p.product_id} supplier`);
      for (const s of stores) assert.ok(warehouseIds.has(s.warehouse_id), `store ${s.store_id} warehouse`);
      for (const r of returns) {
        const order = orderById.get(r.order_id);
        assert.ok(order, `return ${r.return_id} order`);
        assert.equal(r.customer_id, order.customer_id, `return ${r.return_id} customer matches its order`);
        assert.ok(linesByOrder.get(r.order_id)!.some((l) => l.product_id === r.product_id), `return ${r.return_id} product was in the order`);
      }
      const orphanLevels = inventory.query('SELECT product_id FROM stock_levels UNION SELECT product_id FROM "stock movements"').map((r) => String(r[0])).filter((id) => !productIds.has(id));
      assert.deepEqual(orphanLevels, []);
      const orphanWarehouses = inventory.query('SELECT warehouse_id FROM "stock movements" EXCEPT SELECT warehouse_id FROM warehouses');
      assert.deepEqual(orphanWarehouses, []);
      // Customers order only after signing up.
      const signup = new Map(customers.map((c) => [c.customer_id, c.signup_date]));
      for (const o of orders) assert.ok(o.ordered_at.slice(0, 10) >= signup.get(o.customer_id)!, `order ${o.order_id} before signup`);
    });

    it('plants the documented patterns', () => {
      const p = RETAIL_PARAMETERS;
      const regionOf = new Map(customers.map((c) => [c.customer_id, c.region]));

      // Cancellation rate clearly differs by region, West highest.
      const byRegion = new Map<string, { n: number; cancelled: number }>();
      for (const o of orders) {
        const g = byRegion.get(regionOf.get(o.customer_id)!) ?? { n: 0, cancelled: 0 };
        g.n++;
        if (o.status === 'cancelled') g.cancelled++;
        byRegion.set(regionOf.get(o.customer_id)!, g);
      }
      const rates = [...byRegion].map(([region, g]) => ({ region, rate: g.cancelled / g.n })).sort((a, b) => b.rate - a.rate);
      assert.equal(rates[0].region, 'West');
      assert.ok(rates[0].rate - rates[rates.length - 1].rate > 0.08, JSON.stringify(rates));

      // Rating correlates with price.
      const rated = products.filter((x) => x.rating !== '');
      const r = pearson(rated.map((x) => Math.log(Number(x.unit_price))), rated.map((x) => Number(x.rating)));
      assert.ok(r > 0.6, `r = ${r}`);

      // Q4 peak in order volume.
      const byMonth = new Array(12).fill(0);
      for (const o of orders) byMonth[Number(o.ordered_at.slice(5, 7)) - 1]++;
      const q4 = (byMonth[9] + byMonth[10] + byMonth[11]) / 3;
      const rest = byMonth.slice(0, 9).reduce((a: number, b: number) => a + b, 0) / 9;
      assert.ok(q4 > 1.3 * rest, `Q4 ${q4} vs rest ${rest}`);

      // Reconciliation: exactly the planted number of totals disagree with their lines.
      const lineSum = new Map<string, number>();
      for (const i of items) lineSum.set(i.order_id, (lineSum.get(i.order_id) ?? 0) + Number(i.quantity) * Number(i.unit_price) * (1 - Number(i.discount)));
      const mismatched = orders.filter((o) => Math.abs(Number(o.order_total) - lineSum.get(o.order_id)!) > 0.01);
      assert.equal(mismatched.length, p.totalMismatchOrders);

      // Outliers: a handful of totals far above the rest — a clear gap after the planted ones, and far above the median.
      const totals = orders.map((o) => Number(o.order_total)).sort((a, b) => b - a);
      const median = totals[Math.floor(totals.length / 2)];
      const k = p.outlierOrders;
      assert.ok(totals[k - 1] > 2.5 * totals[k], `outlier gap: ${totals.slice(0, k + 2).join(', ')}`);
      assert.ok(totals[k - 1] > 50 * median, `smallest outlier ${totals[k - 1]} vs median ${median}`);

      // Duplicate customer rows.
      assert.equal(customers.length - new Set(customers.map((c) => c.customer_id)).size, p.duplicateCustomerRows);

      // Late orders per the Markdown rule, concentrated in one store.
      const shipped = orders.filter((o) => o.shipped_at !== '');
      const late = shipped.filter((o) => daysBetween(o.ordered_at, o.shipped_at) > p.lateAfterDays);
      assert.ok(late.length > 30 && late.length < 300, `${late.length} late orders`);
      const lateRate = (rows: Row[]) => rows.filter((o) => daysBetween(o.ordered_at, o.shipped_at) > p.lateAfterDays).length / rows.length;
      const lateStore = lateRate(shipped.filter((o) => o.store_id === p.lateStoreId));
      const others = lateRate(shipped.filter((o) => o.store_id !== p.lateStoreId));
      assert.ok(lateStore > 3 * others, `late rate ${lateStore} vs ${others}`);
      // No order ships in the ambiguous band around the threshold.
      assert.ok(shipped.every((o) => Math.abs(daysBetween(o.ordered_at, o.shipped_at) - p.lateAfterDays) > 0.1));

      // VIP customers exist by the documented definition, but are a minority.
      const cancelled = new Set(orders.filter((o) => o.status === 'cancelled').map((o) => o.order_id));
      const customerOf = new Map(orders.map((o) => [o.order_id, o.customer_id]));
      const net = new Map<string, number>();
      for (const i of items) {
        if (cancelled.has(i.order_id)) continue;
        const c = customerOf.get(i.order_id)!;
        net.set(c, (net.get(c) ?? 0) + Number(i.quantity) * Number(i.unit_price) * (1 - Number(i.discount)));
      }
      for (const ret of returns) if (ret.status === 'approved') net.set(ret.customer_id, net.get(ret.customer_id)! - ret.refund_amount);
      const vips = [...net.values()].filter((v) => v > p.vipNetSpendUsd).length;
      assert.ok(vips >= 20 && vips < 150, `${vips} VIP customers`);

      // Returns after the window: mostly rejected, exactly the planted few approved.
      const shippedAt = new Map(orders.map((o) => [o.order_id, o.shipped_at]));
      const lateReturns = returns.filter((ret) => daysBetween(shippedAt.get(ret.order_id)!, ret.requested_at) > p.returnWindowDays);
      assert.ok(lateReturns.length > p.approvedLateReturns);
      assert.equal(lateReturns.filter((ret) => ret.status === 'approved').length, p.approvedLateReturns);

      // Inventory: planted count discrepancies, and some low stock.
      const discrepancies = inventory.query(`
        SELECT COUNT(*) FROM stock_levels AS s
        WHERE s.on_hand != (SELECT SUM(m.quantity) FROM "stock movements" AS m WHERE m.warehouse_id = s.warehouse_id AND m.product_id = s.product_id)`);
      assert.equal(Number(discrepancies[0][0]), p.inventoryCountMismatches);
      assert.ok(Number(inventory.query('SELECT COUNT(*) FROM low_stock')[0][0]) > 0);
    });

    it('documents the thresholds the data follows', () => {
      const rules = fs.readFileSync(path.join(dir, 'business_rules.md'), 'utf8');
      assert.match(rules, /^# /);
      assert.match(rules, new RegExp(`more than ${RETAIL_PARAMETERS.lateAfterDays} days after`));
      assert.match(rules, /above \$2,000/);
      assert.match(rules, new RegExp(`within ${RETAIL_PARAMETERS.returnWindowDays} days`));
      assert.match(rules, /quantity × unit_price × \(1 − discount\)/);
      for (const s of stores) assert.ok(rules.includes(s.store_id), `regions section lists ${s.store_id}`);
    });
  });
});

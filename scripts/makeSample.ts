/**
 * Seeded generator for the retail sample data environment shipped in media/samples/retail/.
 *
 *   node out/scripts/makeSample.js [outDir] [--seed N]
 *
 * Everything comes from one mulberry32 seed (no Math.random, no clock), so two runs with the same seed
 * write byte-identical files. The data carries planted, documented patterns (see RETAIL_PARAMETERS and
 * media/samples/README.md) that the task pool is expected to rediscover.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import { mulberry32 } from '../test/support/random';

// ---------------------------------------------------------------------------------------------------------
// Parameters (also quoted in media/samples/README.md and business_rules.md)
// ---------------------------------------------------------------------------------------------------------

export const REGIONS = ['North', 'South', 'East', 'West', 'Central'] as const;
export type Region = (typeof REGIONS)[number];

export const RETAIL_PARAMETERS = {
  seed: 20240917,
  customers: 500,
  /** Customer ids that appear twice in customers.csv (a CRM export with duplicates). */
  duplicateCustomerRows: 6,
  products: 120,
  suppliers: 14,
  campaigns: 18,
  orders: 3000,
  firstOrderDay: '2023-01-01',
  lastOrderDay: '2024-12-31',
  /** Relative order volume by calendar month (Jan..Dec): the Q4 peak. */
  monthlyWeights: [0.78, 0.72, 0.85, 0.88, 0.92, 0.9, 0.88, 0.93, 0.97, 1.08, 1.45, 1.75],
  /** Order volume in 2024 relative to 2023. */
  growth2024: 1.15,
  /** Probability that an order is cancelled, by the customer's region. */
  cancellationRateByRegion: { North: 0.04, South: 0.06, East: 0.05, West: 0.19, Central: 0.08 } as Record<Region, number>,
  /** Business rule: an order is late when shipped_at is more than this many days after ordered_at. */
  lateAfterDays: 5,
  baseLateRate: 0.03,
  /** One store ships late far more often than the others. */
  lateStoreId: 'S07',
  lateStoreRate: 0.25,
  /** Business rule: VIP customers have lifetime net spend above this many dollars. */
  vipNetSpendUsd: 2000,
  /** Business rule: returns are accepted within this many days of shipped_at. */
  returnWindowDays: 30,
  /** Share of returned order lines, by product category (others: defaultReturnRate). */
  returnRateByCategory: { Apparel: 0.14, Electronics: 0.07, Grocery: 0.01 } as Record<string, number>,
  defaultReturnRate: 0.03,
  /** Returns requested after the window yet approved anyway (policy violations to find). */
  approvedLateReturns: 3,
  /** Bulk orders whose totals are far above the rest (outliers). */
  outlierOrders: 5,
  /** Orders whose stored order_total disagrees with the sum of their order_items. */
  totalMismatchOrders: 8,
  /** List prices were raised by this factor on 2024-01-01; 2023 order lines carry the old price. */
  priceIncrease2024: 1.04,
  /** stock_levels rows whose on_hand disagrees with the sum of their stock movements. */
  inventoryCountMismatches: 5,
};

// ---------------------------------------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------------------------------------

/** FNV-1a, used to derive an independent stream per generated file from the one seed. */
function hashLabel(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

class Rng {
  private readonly next: () => number;
  constructor(private readonly seed: number) {
    this.next = mulberry32(seed);
  }
  /** An independent stream, so changing one file's generator does not reshuffle the others. */
  fork(label: string): Rng {
    return new Rng(hashLabel(this.seed, label));
  }
  float(): number {
    return this.next();
  }
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  normal(mean = 0, sd = 1): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  /** Log-uniform: prices and budgets spread over orders of magnitude. */
  logUniform(min: number, max: number): number {
    return Math.exp(this.uniform(Math.log(min), Math.log(max)));
  }
  weightedIndex(cumulative: number[]): number {
    const target = this.next() * cumulative[cumulative.length - 1];
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
  /** k distinct items, in a seeded order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, k);
  }
}

function cumulativeOf(weights: number[]): number[] {
  const out: number[] = [];
  let sum = 0;
  for (const w of weights) out.push((sum += w));
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Formatting helpers
// ---------------------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;

function dayMs(isoDay: string): number {
  return Date.parse(`${isoDay}T00:00:00Z`);
}
/** ISO date (YYYY-MM-DD) of a UTC millisecond timestamp. */
function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
/** ISO datetime without zone (store-local time), to the second. */
function isoDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
function money(value: number): string {
  return value.toFixed(2);
}

type Cell = string | number | boolean | null | undefined;

function formatCell(cell: Cell, delimiter: string): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  const text = String(cell);
  const needsQuotes = text.includes(delimiter) || text.includes('"') || text.includes('\n') || text.includes('\r');
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180-style text: quotes only where needed, "" inside quotes, LF line ends, trailing newline. */
function toDelimited(header: string[], rows: Cell[][], delimiter: string): string {
  const lines = [header.map((h) => formatCell(h, delimiter)).join(delimiter)];
  for (const row of rows) lines.push(row.map((c) => formatCell(c, delimiter)).join(delimiter));
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------------------------------------
// Reference data
// ---------------------------------------------------------------------------------------------------------

interface StoreSeed {
  id: string;
  name: string;
  city: string;
  state: string;
  region: Region;
  lat: number;
  lon: number;
  format: string;
}

const STORE_SEEDS: StoreSeed[] = [
  { id: 'S01', name: 'Maple & Pine Minneapolis', city: 'Minneapolis', state: 'MN', region: 'North', lat: 44.9778, lon: -93.265, format: 'flagship' },
  { id: 'S02', name: 'Maple & Pine Milwaukee', city: 'Milwaukee', state: 'WI', region: 'North', lat: 43.0389, lon: -87.9065, format: 'standard' },
  { id: 'S03', name: 'Maple & Pine Detroit', city: 'Detroit', state: 'MI', region: 'North', lat: 42.3314, lon: -83.0458, format: 'standard' },
  { id: 'S04', name: 'Maple & Pine Atlanta', city: 'Atlanta', state: 'GA', region: 'South', lat: 33.749, lon: -84.388, format: 'flagship' },
  { id: 'S05', name: 'Maple & Pine Nashville Outlet', city: 'Nashville', state: 'TN', region: 'South', lat: 36.1627, lon: -86.7816, format: 'outlet' },
  { id: 'S06', name: 'Maple & Pine Boston', city: 'Boston', state: 'MA', region: 'East', lat: 42.3601, lon: -71.0589, format: 'flagship' },
  { id: 'S07', name: 'Maple & Pine Philadelphia', city: 'Philadelphia', state: 'PA', region: 'East', lat: 39.9526, lon: -75.1652, format: 'standard' },
  { id: 'S08', name: 'Maple & Pine Baltimore Express', city: 'Baltimore', state: 'MD', region: 'East', lat: 39.2904, lon: -76.6122, format: 'express' },
  { id: 'S09', name: 'Maple & Pine Portland', city: 'Portland', state: 'OR', region: 'West', lat: 45.5152, lon: -122.6784, format: 'flagship' },
  { id: 'S10', name: 'Maple & Pine Sacramento', city: 'Sacramento', state: 'CA', region: 'West', lat: 38.5816, lon: -121.4944, format: 'standard' },
  { id: 'S11', name: 'Maple & Pine Kansas City', city: 'Kansas City', state: 'MO', region: 'Central', lat: 39.0997, lon: -94.5786, format: 'standard' },
  { id: 'S12', name: 'Maple & Pine Omaha Outlet', city: 'Omaha', state: 'NE', region: 'Central', lat: 41.2565, lon: -95.9345, format: 'outlet' },
];

interface Warehouse {
  id: string;
  name: string;
  city: string;
  region: Region;
  capacityUnits: number;
  openedOn: string;
  serves: Region[];
}

const WAREHOUSES: Warehouse[] = [
  { id: 'W1', name: 'Chicago Distribution Center', city: 'Chicago', region: 'North', capacityUnits: 120000, openedOn: '2015-03-02', serves: ['North', 'Central'] },
  { id: 'W2', name: 'Memphis Distribution Center', city: 'Memphis', region: 'South', capacityUnits: 80000, openedOn: '2017-09-18', serves: ['South'] },
  { id: 'W3', name: 'Newark Distribution Center', city: 'Newark', region: 'East', capacityUnits: 95000, openedOn: '2016-05-09', serves: ['East'] },
  { id: 'W4', name: 'Reno Distribution Center', city: 'Reno', region: 'West', capacityUnits: 70000, openedOn: '2019-11-04', serves: ['West'] },
];

function warehouseForRegion(region: Region): string {
  return WAREHOUSES.find((w) => w.serves.includes(region))!.id;
}

const CATEGORY_PRICE_RANGE: Record<string, [number, number]> = {
  Electronics: [25, 900],
  'Home & Kitchen': [12, 320],
  Apparel: [12, 160],
  'Sports & Outdoors': [15, 420],
  Beauty: [6, 85],
  Toys: [8, 120],
  Grocery: [3, 40],
  Books: [8, 60],
};
const CATEGORIES = Object.keys(CATEGORY_PRICE_RANGE);

const CATEGORY_NOUNS: Record<string, string[]> = {
  Electronics: ['Wireless Earbuds', 'Bluetooth Speaker', 'Smartwatch', 'USB-C Hub', '4K Monitor', 'Noise-Cancelling Headphones', 'Action Camera', 'E-Reader', 'Portable Charger', 'Mechanical Keyboard'],
  'Home & Kitchen': ['Cast Iron Skillet', 'Chef Knife', 'French Press', 'Linen Duvet Cover', 'Stand Mixer', 'Ceramic Dinner Set', 'Air Purifier', 'Bamboo Cutting Board', 'Table Lamp', 'Cookware Set'],
  Apparel: ['Merino Sweater', 'Rain Jacket', 'Chino Trousers', 'Denim Jacket', 'Wool Socks', 'Flannel Shirt', 'Puffer Vest', 'Running Tee', 'Leather Belt', 'Knit Beanie'],
  'Sports & Outdoors': ['Trail Backpack', 'Yoga Mat', 'Camping Tent', 'Insulated Bottle', 'Trekking Poles', 'Sleeping Bag', 'Road Bike Helmet', 'Kettlebell', 'Fishing Rod', 'Headlamp'],
  Beauty: ['Face Serum', 'Clay Mask', 'Lip Balm Set', 'Hair Oil', 'Sunscreen SPF 50', 'Body Lotion', 'Beard Kit', 'Eye Cream', 'Shampoo Bar', 'Nail Care Kit'],
  Toys: ['Building Blocks', 'Puzzle 1000 pcs', 'Plush Bear', 'Wooden Train Set', 'Board Game', 'Remote Control Car', 'Science Kit', 'Art Easel', 'Card Game', 'Kite'],
  Grocery: ['Dark Roast Coffee', 'Green Tea', 'Olive Oil', 'Maple Syrup', 'Granola', 'Dark Chocolate', 'Hot Sauce', 'Wildflower Honey', 'Trail Mix', 'Sea Salt'],
  Books: ['Cookbook', 'Field Guide', 'Mystery Novel', 'Travel Atlas', 'Gardening Handbook', 'Biography', 'Poetry Collection', 'Sci-Fi Anthology', 'History of Maps', 'Photography Primer'],
};
const ADJECTIVES = ['Classic', 'Pro', 'Everyday', 'Compact', 'Premium', 'Essential', 'Deluxe', 'Eco', 'Ultra', 'Heritage'];
const BRANDS = ['Northfield', 'Larkspur', 'Cedar & Co', 'Bluewater', 'Ironwood', 'Sunvale', 'Kestrel', 'Harbor Lane'];
const FEATURES = [
  'durable, lightweight construction',
  'backed by a 2-year warranty',
  'easy to clean, dishwasher safe',
  'made from recycled materials',
  'gift-ready packaging',
  'designed in Portland, made in Portugal',
  'fits most standard sizes',
  'rated "excellent" by our testers',
];

const FIRST_NAMES = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Carlos', 'Karen', 'Wei', 'Aisha', 'Mateo', 'Priya', 'Noah', 'Olivia', 'Liam', 'Emma', 'Hiroshi', 'Fatima', 'Diego', 'Chloe', 'Ethan', 'Sofia', 'Omar', 'Grace', 'Lucas', 'Mia', 'Andre', 'Zoe'];
const LAST_NAMES = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Nguyen', 'Patel', 'Kim', "O'Brien", 'Chen', 'Okafor', 'Schmidt', 'Rossi', 'Kowalski', 'Haddad'];
const STREETS = ['Maple St', 'Oak Ave', 'Pine Rd', 'Cedar Ln', 'Elm St', 'Lakeview Dr', 'Hillcrest Blvd', 'Main St', 'River Rd', 'Park Pl', 'Sunset Ave', 'Washington St'];

interface SupplierSeed {
  name: string;
  country: string;
  city: string;
  currency: string;
}
const SUPPLIER_SEEDS: SupplierSeed[] = [
  { name: 'Müller & Söhne GmbH', country: 'Germany', city: 'Stuttgart', currency: 'EUR' },
  { name: 'Atelier Lumière SARL', country: 'France', city: 'Lyon', currency: 'EUR' },
  { name: 'Ferro Cucina S.p.A.', country: 'Italy', city: 'Milano', currency: 'EUR' },
  { name: 'Textiles Ibéricos S.L.', country: 'Spain', city: 'Valencia', currency: 'EUR' },
  { name: 'Van der Berg Outdoor B.V.', country: 'Netherlands', city: 'Utrecht', currency: 'EUR' },
  { name: 'Nordljus Elektronik AB', country: 'Sweden', city: 'Göteborg', currency: 'SEK' },
  { name: 'Kraków Toys Sp. z o.o.', country: 'Poland', city: 'Kraków', currency: 'PLN' },
  { name: 'Lusitânia Cortiça Lda', country: 'Portugal', city: 'Porto', currency: 'EUR' },
  { name: 'Hygge Living ApS', country: 'Denmark', city: 'Aarhus', currency: 'DKK' },
  { name: 'Alpenkraft Sport GmbH', country: 'Austria', city: 'Innsbruck', currency: 'EUR' },
  { name: 'Brasserie & Épicerie Fine SA', country: 'Belgium', city: 'Gent', currency: 'EUR' },
  { name: 'Schwarzwald Papier KG', country: 'Germany', city: 'Freiburg', currency: 'EUR' },
  { name: 'Beauté Naturelle SAS', country: 'France', city: 'Grasse', currency: 'EUR' },
  { name: 'Olivar del Sur S.A.', country: 'Spain', city: 'Sevilla', currency: 'EUR' },
];
const SUPPLIER_CATEGORY: string[] = [
  'Home & Kitchen', 'Home & Kitchen', 'Home & Kitchen', 'Apparel', 'Sports & Outdoors', 'Electronics', 'Toys',
  'Home & Kitchen', 'Home & Kitchen', 'Sports & Outdoors', 'Grocery', 'Books', 'Beauty', 'Grocery',
];

// ---------------------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------------------

interface Supplier {
  id: string;
  category: string;
  row: Cell[];
}

function makeSuppliers(rng: Rng): Supplier[] {
  return SUPPLIER_SEEDS.slice(0, RETAIL_PARAMETERS.suppliers).map((seed, i) => {
    const id = `SUP${String(i + 1).padStart(2, '0')}`;
    const contact = `${rng.pick(['Anna', 'Lukas', 'Camille', 'Marco', 'Lucía', 'Sven', 'Zofia', 'João', 'Freja', 'Jonas'])} ${rng.pick(['Becker', 'Moreau', 'Bianchi', 'García', 'de Vries', 'Lindqvist', 'Nowak', 'Silva', 'Jensen', 'Peeters'])}`;
    const domain = seed.name.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '').slice(0, 14);
    const notes = rng.chance(0.3)
      ? rng.pick(['Pallets only; no mixed cartons', 'Invoices in EUR; payment 60 days net', 'Closed in August; plan ahead', 'Ships via Rotterdam; customs by broker'])
      : null;
    return {
      id,
      category: SUPPLIER_CATEGORY[i],
      row: [
        id,
        seed.name,
        seed.country,
        seed.city,
        contact,
        `orders@${domain}.example`,
        seed.currency,
        rng.int(9, 45),
        money(Math.round(rng.uniform(500, 6000) / 50) * 50),
        round2(rng.uniform(0.82, 0.99)),
        rng.chance(0.5),
        notes,
      ],
    };
  });
}

interface Product {
  id: string;
  name: string;
  category: string;
  price: number;
  popularity: number;
  row: Cell[];
}

function makeProducts(rng: Rng, suppliers: Supplier[]): Product[] {
  const products: Product[] = [];
  const usedNames = new Set<string>();
  const draft: Array<{ category: string; price: number }> = [];
  for (let i = 0; i < RETAIL_PARAMETERS.products; i++) {
    const category = CATEGORIES[i % CATEGORIES.length];
    const [lo, hi] = CATEGORY_PRICE_RANGE[category];
    draft.push({ category, price: round2(Math.floor(rng.logUniform(lo, hi)) + rng.pick([0.99, 0.49, 0.95, 0.0])) });
  }
  // Rating rises with log(price): the planted price↔rating correlation.
  const logs = draft.map((d) => Math.log(d.price));
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / logs.length);
  for (let i = 0; i < draft.length; i++) {
    const { category, price } = draft[i];
    const id = `P${String(i + 1).padStart(4, '0')}`;
    const brand = rng.pick(BRANDS);
    let name = `${brand} ${rng.pick(ADJECTIVES)} ${rng.pick(CATEGORY_NOUNS[category])}`;
    while (usedNames.has(name)) name = `${name} ${rng.int(2, 9)}`;
    usedNames.add(name);
    const z = (Math.log(price) - mean) / sd;
    const rating = Math.min(5, Math.max(1, 3.7 + 0.45 * z + rng.normal(0, 0.22)));
    const newProduct = rng.chance(0.06); // no reviews yet → no rating
    const reviewCount = newProduct ? 0 : Math.floor(rng.logUniform(3, 1500));
    const supplierChoices = suppliers.filter((s) => s.category === category);
    const supplier = supplierChoices.length > 0 ? rng.pick(supplierChoices) : null;
    const features = rng.sample(FEATURES, rng.int(1, 3));
    let description = `${name}: ${features.join(', ')}.`;
    if (rng.chance(0.1)) description += `\nNote: ${rng.pick(['ships in 1–2 business days', 'limited stock, while supplies last', 'see the size chart before ordering'])}.`;
    const launchedOn = isoDate(dayMs('2019-01-01') + rng.int(0, 2100) * DAY_MS);
    const cost = round2(price * rng.uniform(0.38, 0.62));
    products.push({
      id,
      name,
      category,
      price,
      // Cheaper items sell more often.
      popularity: Math.exp(rng.normal(0, 0.6)) / Math.sqrt(price),
      row: [
        id,
        `SKU-${category.slice(0, 3).toUpperCase()}-${String(1000 + i * 7)}`,
        name,
        category,
        brand,
        money(price),
        money(cost),
        newProduct ? null : rating.toFixed(1),
        reviewCount,
        rng.chance(0.08) ? null : rng.uniform(0.1, 12).toFixed(2),
        launchedOn,
        rng.chance(0.07),
        supplier?.id ?? null,
        description,
      ],
    });
  }
  return products;
}

interface Store {
  id: string;
  region: Region;
  json: Record<string, unknown>;
}

function makeStores(rng: Rng): Store[] {
  let employeeNumber = 1;
  const roles = ['Sales Associate', 'Sales Associate', 'Stock Associate', 'Cashier', 'Visual Merchandiser'];
  const tagPool = ['parking', 'click_and_collect', 'late_hours', 'cafe', 'repair_desk', 'accessible_entrance', 'ev_charging'];
  return STORE_SEEDS.map((seed) => {
    const staff: Array<Record<string, unknown>> = [];
    const staffCount = seed.format === 'flagship' ? rng.int(8, 11) : seed.format === 'express' ? rng.int(3, 4) : rng.int(5, 7);
    for (let s = 0; s < staffCount; s++) {
      const role = s === 0 ? 'Store Manager' : s === 1 ? 'Assistant Manager' : rng.pick(roles);
      staff.push({
        employee_id: `E${String(employeeNumber++).padStart(3, '0')}`,
        name: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
        role,
        hired_on: isoDate(dayMs('2014-01-01') + rng.int(0, 3800) * DAY_MS),
        full_time: s < 2 ? true : rng.chance(0.55),
        // Managers are salaried: no hourly rate.
        hourly_rate: s === 0 ? null : round2(rng.uniform(16, 27)),
      });
    }
    const tags = rng.sample(tagPool, rng.int(1, 4));
    if (seed.format === 'outlet') tags.unshift('outlet');
    return {
      id: seed.id,
      region: seed.region,
      json: {
        store_id: seed.id,
        name: seed.name,
        format: seed.format,
        opened_on: isoDate(dayMs('2008-01-01') + rng.int(0, 4000) * DAY_MS),
        square_feet: seed.format === 'express' ? rng.int(3, 6) * 1000 : rng.int(12, 40) * 1000,
        warehouse_id: warehouseForRegion(seed.region),
        phone: `+1-${rng.int(201, 989)}-555-${String(rng.int(100, 9999)).padStart(4, '0')}`,
        address: {
          street: `${rng.int(10, 2999)} ${rng.pick(STREETS)}`,
          city: seed.city,
          state: seed.state,
          postal_code: String(rng.int(1000, 99999)).padStart(5, '0'),
          region: seed.region,
          geo: { lat: seed.lat, lon: seed.lon },
        },
        tags,
        staff,
      },
    };
  });
}

interface Campaign {
  id: string;
  start: number;
  end: number;
  region: Region | null;
  category: string | null;
  discount: number;
  row: Cell[];
}

function makeCampaigns(rng: Rng): Campaign[] {
  const plan: Array<[string, string, number, number, number]> = [
    // name, start (YYYY-MM-DD), length in days, discount %, Q4 flag as budget multiplier
    ['New Year Reset', '01-02', 14, 10, 1],
    ['Spring Refresh', '03-18', 21, 10, 1],
    ['Outdoor Season', '05-06', 28, 15, 1],
    ['Back to School', '08-05', 21, 10, 1],
    ['Black Friday', '11-24', 5, 25, 3],
    ['Holiday Gift Guide', '12-01', 22, 15, 3],
    ['Summer Clearance', '07-08', 14, 20, 1],
    ['Cozy Home Week', '10-14', 7, 15, 1],
    ['Singles Day Flash', '11-11', 2, 20, 2],
  ];
  const campaigns: Campaign[] = [];
  for (const year of [2023, 2024]) {
    for (const [name, monthDay, days, discount, budgetFactor] of plan) {
      if (campaigns.length >= RETAIL_PARAMETERS.campaigns) break;
      const id = `K${String(campaigns.length + 1).padStart(3, '0')}`;
      const start = dayMs(`${year}-${monthDay}`);
      const end = start + (days - 1) * DAY_MS;
      const region: Region | null = rng.chance(0.3) ? rng.pick(REGIONS) : null;
      const category = name === 'Outdoor Season' ? 'Sports & Outdoors' : name === 'Cozy Home Week' ? 'Home & Kitchen' : name === 'Back to School' ? 'Books' : null;
      const channel = rng.pick(['email', 'social', 'search', 'display']);
      campaigns.push({
        id,
        start,
        end,
        region,
        category,
        discount: discount / 100,
        row: [id, `${name} ${year}`, channel, isoDate(start), isoDate(end), money(Math.round(rng.uniform(8, 30) * budgetFactor) * 1000), region, category, discount],
      });
    }
  }
  return campaigns;
}

interface Customer {
  id: string;
  region: Region;
  homeStore: string;
  signup: number;
  loyalty: boolean;
  weight: number;
  row: Cell[];
}

function makeCustomers(rng: Rng, stores: Store[]): { customers: Customer[]; rows: Cell[][] } {
  const customers: Customer[] = [];
  for (let i = 0; i < RETAIL_PARAMETERS.customers; i++) {
    const id = `C${String(i + 1).padStart(4, '0')}`;
    const store = rng.pick(stores);
    const seed = STORE_SEEDS.find((s) => s.id === store.id)!;
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const signup = rng.chance(0.6)
      ? dayMs('2020-06-01') + rng.int(0, 943) * DAY_MS
      : dayMs('2023-01-01') + rng.int(0, 669) * DAY_MS;
    const loyalty = rng.chance(0.35);
    const email = rng.chance(0.04) ? null : `${first}.${last}${rng.int(1, 99)}@${rng.pick(['example.com', 'mail.example', 'inbox.example'])}`.toLowerCase().replace(/'/g, '');
    const unit = rng.chance(0.3) ? `, Apt ${rng.int(1, 40)}${rng.pick(['A', 'B', 'C', ''])}` : '';
    customers.push({
      id,
      region: store.region,
      homeStore: store.id,
      signup,
      loyalty,
      // Heavy-tailed spend: a few customers place many orders.
      weight: Math.exp(rng.normal(0, 0.9)),
      row: [
        id,
        first,
        last,
        email,
        rng.chance(0.12) ? null : `(${rng.int(201, 989)}) 555-${String(rng.int(0, 9999)).padStart(4, '0')}`,
        `${rng.int(1, 9999)} ${rng.pick(STREETS)}${unit}`,
        seed.city,
        seed.state,
        String(rng.int(1000, 99999)).padStart(5, '0'),
        store.region,
        isoDate(signup),
        rng.chance(0.09) ? null : rng.int(1948, 2005),
        rng.pick(['Consumer', 'Consumer', 'Consumer', 'Small Business', 'Corporate']),
        loyalty,
      ],
    });
  }
  // A CRM export with duplicates: a few customers appear twice, the later row with an updated email.
  const rows = customers.map((c) => c.row);
  const duplicated = rng.sample(customers.slice(0, customers.length - 50), RETAIL_PARAMETERS.duplicateCustomerRows);
  for (const customer of duplicated) {
    const copy = customer.row.slice();
    copy[3] = `${String(copy[1]).toLowerCase()}.${String(copy[2]).toLowerCase().replace(/'/g, '')}@newmail.example`;
    const at = rng.int(customers.indexOf(customer) + 1, rows.length);
    rows.splice(at, 0, copy);
  }
  return { customers, rows };
}

interface OrderLine {
  product: Product;
  quantity: number;
  unitPrice: number;
  discount: number;
}

interface Order {
  id: string;
  customer: Customer;
  storeId: string;
  orderedAt: number;
  shippedAt: number | null;
  status: string;
  campaign: Campaign | null;
  lines: OrderLine[];
  total: number;
}

const NOTES = [
  'Leave at the back door, not the front.',
  'Gift wrap please; include card "Happy birthday, Sam!"',
  'Call before delivery, ring twice.\nGate code 4471',
  'Customer asked to combine with previous order, if possible',
  'Fragile, handle with care',
  'Deliver after 5pm, weekdays only',
  'Replacement for damaged item from earlier order.\nNo charge for shipping.',
  'Corporate account, PO #88-1203',
];

function makeOrders(rng: Rng, customers: Customer[], stores: Store[], products: Product[], campaigns: Campaign[]): Order[] {
  const p = RETAIL_PARAMETERS;
  const periodEnd = dayMs(p.lastOrderDay) + DAY_MS - 1000;
  const months: Array<{ start: number; days: number }> = [];
  const monthWeights: number[] = [];
  for (const year of [2023, 2024]) {
    for (let m = 0; m < 12; m++) {
      const start = Date.UTC(year, m, 1);
      const days = Math.round((Date.UTC(year, m + 1, 1) - start) / DAY_MS);
      months.push({ start, days });
      monthWeights.push(p.monthlyWeights[m] * (year === 2024 ? p.growth2024 : 1));
    }
  }
  const monthCum = cumulativeOf(monthWeights);
  const customerCum = cumulativeOf(customers.map((c) => c.weight));
  const productCum = cumulativeOf(products.map((x) => x.popularity));
  const hourCum = cumulativeOf([0, 0, 0, 0, 0, 0, 1, 2, 4, 6, 7, 8, 9, 8, 7, 7, 8, 9, 10, 10, 9, 7, 4, 2]);
  const lineCountCum = cumulativeOf([0.22, 0.28, 0.22, 0.14, 0.09, 0.05]);
  const storesByRegion = new Map<Region, string[]>();
  for (const s of stores) storesByRegion.set(s.region, [...(storesByRegion.get(s.region) ?? []), s.id]);

  const drafts: Array<{ orderedAt: number; customer: Customer }> = [];
  for (let i = 0; i < p.orders; i++) {
    const month = months[rng.weightedIndex(monthCum)];
    const orderedAt = month.start + rng.int(0, month.days - 1) * DAY_MS + rng.weightedIndex(hourCum) * 3_600_000 + rng.int(0, 3599) * 1000;
    // A customer can only order after signing up; redraw a few times, else take the earliest signup.
    let customer = customers[rng.weightedIndex(customerCum)];
    for (let tries = 0; tries < 30 && customer.signup > orderedAt; tries++) customer = customers[rng.weightedIndex(customerCum)];
    if (customer.signup > orderedAt) customer = customers.reduce((a, b) => (b.signup < a.signup ? b : a));
    drafts.push({ orderedAt, customer });
  }
  drafts.sort((a, b) => a.orderedAt - b.orderedAt);

  const orders: Order[] = drafts.map(({ orderedAt, customer }, i) => {
    const regionStores = storesByRegion.get(customer.region)!;
    const storeId = rng.chance(0.85) ? customer.homeStore : rng.pick(regionStores);
    const eligible = campaigns.filter((c) => orderedAt >= c.start && orderedAt < c.end + DAY_MS && (c.region === null || c.region === customer.region));
    const campaign = eligible.length > 0 && rng.chance(0.4) ? rng.pick(eligible) : null;
    const lineCount = rng.weightedIndex(lineCountCum) + 1;
    const chosen = new Set<number>();
    while (chosen.size < lineCount) chosen.add(rng.weightedIndex(productCum));
    const lines: OrderLine[] = [...chosen].map((index) => {
      const product = products[index];
      const roll = rng.float();
      const quantity = roll < 0.7 ? 1 : roll < 0.9 ? 2 : roll < 0.97 ? 3 : rng.int(4, 6);
      const unitPrice = orderedAt < dayMs('2024-01-01') ? round2(product.price / p.priceIncrease2024) : product.price;
      let discount = 0;
      if (campaign && (campaign.category === null || campaign.category === product.category)) discount = campaign.discount;
      else if (customer.loyalty && rng.chance(0.2)) discount = 0.05;
      return { product, quantity, unitPrice, discount };
    });
    const cancelled = rng.chance(p.cancellationRateByRegion[customer.region]);
    const lateRate = storeId === p.lateStoreId ? p.lateStoreRate : p.baseLateRate;
    // Normal shipping stays well inside the 5-day rule; late shipments are clearly over it.
    const delayMs = rng.chance(lateRate) ? rng.uniform(5.3, 12) * DAY_MS : rng.uniform(0.15, 4.6) * DAY_MS;
    let shippedAt: number | null = null;
    let status: string;
    if (cancelled) status = 'cancelled';
    else if (orderedAt + delayMs > periodEnd) status = 'processing';
    else {
      shippedAt = Math.round((orderedAt + delayMs) / 1000) * 1000;
      status = shippedAt + 3 * DAY_MS > periodEnd ? 'shipped' : 'delivered';
    }
    return { id: `O${String(i + 1).padStart(5, '0')}`, customer, storeId, orderedAt, shippedAt, status, campaign, lines, total: 0 };
  });

  // Outliers: a handful of 2024 bulk orders of a pricier product, far above every other total.
  const bulkCandidates = orders.filter((o) => o.status === 'delivered' && o.orderedAt >= dayMs('2024-01-01'));
  const outliers = rng.sample(bulkCandidates, p.outlierOrders);
  const pricey = products.filter((x) => x.price >= 60);
  for (const order of outliers) {
    const product = rng.pick(pricey);
    const quantity = Math.ceil(rng.uniform(7000, 12000) / product.price);
    order.lines = [{ product, quantity, unitPrice: product.price, discount: 0 }, ...order.lines.filter((l) => l.product !== product)];
  }
  for (const order of orders) order.total = round2(order.lines.reduce((sum, l) => sum + l.quantity * l.unitPrice * (1 - l.discount), 0));

  // Reconciliation breaks: stored totals that disagree with their lines (stale cart or a fee added).
  const mismatchCandidates = orders.filter((o) => o.status !== 'cancelled' && !outliers.includes(o));
  for (const order of rng.sample(mismatchCandidates, p.totalMismatchOrders)) {
    const delta = rng.chance(0.5) ? rng.pick([9.95, 14.95, 24.99]) : -round2(rng.uniform(5, 40));
    order.total = round2(Math.max(1, order.total + delta));
  }
  return orders;
}

interface ReturnRecord {
  json: Record<string, unknown>;
}

function makeReturns(rng: Rng, orders: Order[]): ReturnRecord[] {
  const p = RETAIL_PARAMETERS;
  const periodEnd = dayMs(p.lastOrderDay) + DAY_MS - 1000;
  const reasons: Record<string, string[]> = {
    Apparel: ['wrong size', 'wrong size', 'not as described', 'changed mind'],
    Electronics: ['defective', 'defective', 'not compatible', 'changed mind'],
  };
  const drafts: Array<{ order: Order; line: OrderLine; requestedAt: number; late: boolean }> = [];
  for (const order of orders) {
    if (order.status !== 'delivered' || order.shippedAt === null) continue;
    for (const line of order.lines) {
      const rate = p.returnRateByCategory[line.product.category] ?? p.defaultReturnRate;
      if (!rng.chance(rate)) continue;
      const late = rng.chance(0.08);
      const requestedAt = order.shippedAt + (late ? rng.int(31, 70) : rng.int(1, 29)) * DAY_MS + rng.int(0, 36_000) * 1000;
      if (requestedAt > periodEnd) continue;
      drafts.push({ order, line, requestedAt, late });
    }
  }
  drafts.sort((a, b) => a.requestedAt - b.requestedAt);
  const lateIndices = drafts.map((d, i) => (d.late ? i : -1)).filter((i) => i >= 0);
  const approvedLate = new Set(rng.sample(lateIndices, Math.min(p.approvedLateReturns, lateIndices.length)));
  return drafts.map(({ order, line, requestedAt, late }, i) => {
    const quantity = line.quantity === 1 ? 1 : rng.int(1, Math.min(line.quantity, 3));
    const approved = late ? approvedLate.has(i) : rng.chance(0.94);
    const reason = rng.pick(reasons[line.product.category] ?? ['damaged in transit', 'changed mind', 'not as described', 'arrived late']);
    const record: Record<string, unknown> = {
      return_id: `R${String(i + 1).padStart(5, '0')}`,
      order_id: order.id,
      product_id: line.product.id,
      customer_id: order.customer.id,
      quantity,
      reason,
      requested_at: isoDateTime(requestedAt),
      status: approved ? 'approved' : 'rejected',
      // Refunds are net of the line's discount; rejected returns refund nothing.
      refund_amount: approved ? round2(quantity * line.unitPrice * (1 - line.discount)) : null,
      inspection: { condition: rng.pick(['unopened', 'opened', 'opened', 'damaged']), restockable: rng.chance(0.7) },
    };
    if (rng.chance(0.25)) record.comment = rng.pick(['Box was crushed, item fine', 'Too small, ordered a size up', 'Stopped working after a week', 'Colour differs from the photo, "navy" is almost black']);
    return { json: record };
  });
}

// ---------------------------------------------------------------------------------------------------------
// SQLite inventory (sql.js)
// ---------------------------------------------------------------------------------------------------------

async function makeInventory(rng: Rng, products: Product[]): Promise<Uint8Array> {
  const SQL = await initSqlJs({ locateFile: () => require.resolve('sql.js/dist/sql-wasm.wasm') });
  const db = new SQL.Database();
  try {
    db.run(`
      CREATE TABLE warehouses (
        warehouse_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        city TEXT NOT NULL,
        region TEXT NOT NULL,
        capacity_units INTEGER NOT NULL,
        opened_on TEXT NOT NULL
      );
      CREATE TABLE stock_levels (
        warehouse_id TEXT NOT NULL REFERENCES warehouses(warehouse_id),
        product_id TEXT NOT NULL,
        on_hand INTEGER NOT NULL,
        reorder_point INTEGER NOT NULL,
        last_counted_at TEXT,
        PRIMARY KEY (warehouse_id, product_id)
      );
      CREATE TABLE "stock movements" (
        movement_id INTEGER PRIMARY KEY,
        warehouse_id TEXT NOT NULL REFERENCES warehouses(warehouse_id),
        product_id TEXT NOT NULL,
        moved_at TEXT NOT NULL,
        movement_type TEXT NOT NULL CHECK (movement_type IN ('receipt', 'sale', 'transfer', 'adjustment')),
        quantity INTEGER NOT NULL,
        reference TEXT
      );
      CREATE VIEW low_stock AS
        SELECT s.warehouse_id, w.name AS warehouse_name, s.product_id, s.on_hand, s.reorder_point
        FROM stock_levels AS s JOIN warehouses AS w ON w.warehouse_id = s.warehouse_id
        WHERE s.on_hand < s.reorder_point;
    `);
    db.run('BEGIN');
    const insertWarehouse = db.prepare('INSERT INTO warehouses VALUES (?, ?, ?, ?, ?, ?)');
    for (const w of WAREHOUSES) insertWarehouse.run([w.id, w.name, w.city, w.region, w.capacityUnits, w.openedOn]);
    insertWarehouse.free();

    const insertLevel = db.prepare('INSERT INTO stock_levels VALUES (?, ?, ?, ?, ?)');
    const insertMove = db.prepare('INSERT INTO "stock movements" (warehouse_id, product_id, moved_at, movement_type, quantity, reference) VALUES (?, ?, ?, ?, ?, ?)');
    const pairs: Array<{ warehouse: string; product: Product }> = [];
    for (const w of WAREHOUSES) {
      const stocked = rng.sample(products, rng.int(60, 85)).sort((a, b) => a.id.localeCompare(b.id));
      for (const product of stocked) pairs.push({ warehouse: w.id, product });
    }
    const mismatched = new Set(rng.sample(pairs.map((_, i) => i), RETAIL_PARAMETERS.inventoryCountMismatches));
    const yearStart = dayMs('2024-01-01');
    pairs.forEach(({ warehouse, product }, index) => {
      const events: Array<{ at: number; type: string; quantity: number; reference: string | null }> = [];
      const receipts = rng.int(1, 3);
      for (let r = 0; r < receipts; r++) events.push({ at: yearStart + rng.int(0, 330) * DAY_MS, type: 'receipt', quantity: rng.int(4, 12) * 10, reference: `PO-24-${rng.int(1000, 9999)}` });
      events.sort((a, b) => a.at - b.at);
      let balance = 0;
      const stream: typeof events = [];
      for (const receipt of events) {
        balance += receipt.quantity;
        stream.push(receipt);
        // Sales drain stock after each receipt; sometimes down to (almost) nothing.
        const sales = rng.int(1, 3);
        for (let s = 0; s < sales && balance > 0; s++) {
          const quantity = Math.min(balance, rng.int(5, 45));
          balance -= quantity;
          stream.push({ at: receipt.at + rng.int(1, 30) * DAY_MS, type: 'sale', quantity: -quantity, reference: null });
        }
      }
      if (rng.chance(0.12)) {
        const quantity = Math.min(balance, rng.int(1, 6));
        balance -= quantity;
        stream.push({ at: yearStart + rng.int(331, 360) * DAY_MS, type: rng.chance(0.5) ? 'adjustment' : 'transfer', quantity: -quantity, reference: rng.chance(0.5) ? 'cycle count' : null });
      }
      stream.sort((a, b) => a.at - b.at);
      for (const e of stream) insertMove.run([warehouse, product.id, isoDateTime(e.at + rng.int(8, 17) * 3_600_000), e.type, e.quantity, e.reference]);
      // The planted count discrepancies: on_hand no longer equals the sum of movements.
      const onHand = mismatched.has(index) ? balance + rng.pick([-7, -4, 3, 6, 12]) : balance;
      const lastCounted = rng.chance(0.1) ? null : isoDateTime(dayMs('2024-12-01') + rng.int(0, 29) * DAY_MS + 7 * 3_600_000);
      insertLevel.run([warehouse, product.id, Math.max(0, onHand), rng.int(2, 6) * 5, lastCounted]);
    });
    insertLevel.free();
    insertMove.free();
    db.run('COMMIT');
    db.run('PRAGMA user_version = 1');
    return db.export();
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Markdown business rules
// ---------------------------------------------------------------------------------------------------------

function businessRules(stores: Store[]): string {
  const p = RETAIL_PARAMETERS;
  const regionLines = REGIONS.map((region) => {
    const ids = stores.filter((s) => s.region === region).map((s) => s.id);
    return `- **${region}**: stores ${ids.join(', ')}; served by warehouse ${warehouseForRegion(region)}`;
  });
  return `# Maple & Pine Retail — Business Rules and Metric Definitions

Owner: Analytics team. These definitions are the reference for every report built on the files in this folder
(orders, order items, customers, products, stores, returns, campaigns, suppliers and the inventory database).
All amounts are in US dollars unless a file says otherwise (supplier terms are in the supplier's currency).

## Regions

Every customer belongs to the region of their home store; orders are attributed to the customer's region.

${regionLines.join('\n')}

## Revenue

Revenue is computed from order lines, never from the stored \`order_total\`:

    revenue = quantity × unit_price × (1 − discount)

summed over \`order_items\`, **excluding cancelled orders** (\`orders.status = 'cancelled'\`). Orders with status
\`processing\`, \`shipped\` or \`delivered\` count. \`discount\` is a fraction (0.15 means 15 % off).

Always use \`order_items.unit_price\`: list prices in \`products.csv\` are current prices. List prices were raised by
${Math.round((p.priceIncrease2024 - 1) * 100)} % on 2024-01-01, so 2023 order lines carry the older, lower prices.

## Order total reconciliation

\`orders.order_total\` is captured at checkout. It must equal the sum of the order's lines (the revenue formula
above, before excluding cancellations) within $0.01. Orders that differ are flagged for finance review; the lines
are the source of truth.

## Cancellation rate

Cancellation rate = cancelled orders ÷ all orders placed, for the period and group in question.

## Late orders

An order is **late** when \`shipped_at\` is more than ${p.lateAfterDays} days after \`ordered_at\`. Orders that have not shipped
(cancelled or still processing) are neither late nor on time. The on-time target is 95 % of shipped orders per store.

## Returns

Returns are accepted within ${p.returnWindowDays} days of \`shipped_at\`; requests made later must be rejected. The refund is the
returned quantity × the line's unit price × (1 − discount). Rejected returns refund nothing (\`refund_amount\` is null).
Return rate for a category = returned units ÷ units sold in non-cancelled orders.

## Customers

- **Lifetime net spend** = revenue from the customer's non-cancelled orders minus the refunds of their approved returns.
- **VIP customers** have lifetime net spend above $${p.vipNetSpendUsd.toLocaleString('en-US')}.
- A customer is **active** in a year when they placed at least one non-cancelled order in it.
- \`customers.csv\` is a CRM export and may hold more than one row per \`customer_id\`; the last row wins.

## Seasonality and fiscal calendar

The fiscal year is the calendar year. Q4 (October–December) is peak season: November and December carry the
Black Friday and Holiday campaigns. Month-over-month growth compares a month's revenue with the previous month's.

## Campaigns

An order's \`campaign_id\` names the campaign it was attributed to. A campaign's \`discount_pct\` applies to lines in
its \`target_category\` (every category when empty) and only in its \`target_region\` (every region when empty).

## Inventory

- A product is **low on stock** in a warehouse when \`on_hand\` is below \`reorder_point\` (the \`low_stock\` view).
- \`on_hand\` should equal the sum of the quantities in \`stock movements\` for that warehouse and product
  (receipts are positive; sales, transfers and adjustments are negative). Differences are count discrepancies.
`;
}

// ---------------------------------------------------------------------------------------------------------
// Orchestration
// ---------------------------------------------------------------------------------------------------------

export interface GeneratedFile {
  file: string;
  bytes: number;
  /** Records written (rows, lines, stores, or 0 for documents). */
  records: number;
}

export interface SampleSummary {
  outDir: string;
  seed: number;
  files: GeneratedFile[];
  totalBytes: number;
}

/** Writes the retail sample environment into outDir (created if missing). Only the sample's own files are written. */
export async function generateRetailSample(outDir: string, seed: number = RETAIL_PARAMETERS.seed): Promise<SampleSummary> {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`seed must be an integer in [0, 4294967295], got ${seed}`);
  const root = new Rng(seed);
  const suppliers = makeSuppliers(root.fork('suppliers'));
  const products = makeProducts(root.fork('products'), suppliers);
  const stores = makeStores(root.fork('stores'));
  const campaigns = makeCampaigns(root.fork('campaigns'));
  const { customers, rows: customerRows } = makeCustomers(root.fork('customers'), stores);
  const orders = makeOrders(root.fork('orders'), customers, stores, products, campaigns);
  const returns = makeReturns(root.fork('returns'), orders);
  const inventory = await makeInventory(root.fork('inventory'), products);

  const notesRng = root.fork('notes');
  const orderRows: Cell[][] = orders.map((o) => [
    o.id,
    o.customer.id,
    o.storeId,
    notesRng.pick(['web', 'web', 'app', 'phone']),
    isoDateTime(o.orderedAt),
    o.shippedAt === null || notesRng.chance(0.01) ? null : isoDateTime(o.shippedAt), // 1 %: shipped but the scan is missing
    o.status,
    notesRng.chance(0.02) ? null : notesRng.pick(['card', 'card', 'card', 'paypal', 'gift_card', 'apple_pay']),
    o.campaign?.id ?? null,
    money(o.total),
    o.lines.some((l) => l.quantity >= 20) ? 'Bulk order for corporate event, invoice to "Accounts Payable, 4th floor"' : notesRng.chance(0.05) ? notesRng.pick(NOTES) : null,
  ]);
  let itemId = 1;
  const itemRows: Cell[][] = [];
  for (const o of orders) {
    o.lines.forEach((l, index) => {
      itemRows.push([itemId++, o.id, index + 1, l.product.id, l.quantity, money(l.unitPrice), l.discount.toFixed(2)]);
    });
  }

  const files: Array<[string, string | Uint8Array, number]> = [
    ['customers.csv', toDelimited(['customer_id', 'first_name', 'last_name', 'email', 'phone', 'street_address', 'city', 'state', 'postal_code', 'region', 'signup_date', 'birth_year', 'segment', 'loyalty_member'], customerRows, ','), customerRows.length],
    ['products.csv', toDelimited(['product_id', 'sku', 'name', 'category', 'brand', 'unit_price', 'unit_cost', 'rating', 'review_count', 'weight_kg', 'launched_on', 'is_discontinued', 'supplier_id', 'description'], products.map((x) => x.row), ','), products.length],
    ['orders.csv', toDelimited(['order_id', 'customer_id', 'store_id', 'channel', 'ordered_at', 'shipped_at', 'status', 'payment_method', 'campaign_id', 'order_total', 'notes'], orderRows, ','), orderRows.length],
    ['order_items.csv', toDelimited(['order_item_id', 'order_id', 'line_number', 'product_id', 'quantity', 'unit_price', 'discount'], itemRows, ','), itemRows.length],
    // A European supplier export: semicolons, UTF-8 with a byte-order mark (as Excel writes it).
    ['suppliers.csv', '\ufeff' + toDelimited(['supplier_id', 'company_name', 'country', 'city', 'contact_name', 'contact_email', 'currency', 'lead_time_days', 'min_order_value', 'on_time_rate', 'preferred', 'notes'], suppliers.map((s) => s.row), ';'), suppliers.length],
    ['marketing_campaigns.tsv', toDelimited(['campaign_id', 'name', 'channel', 'start_date', 'end_date', 'budget_usd', 'target_region', 'target_category', 'discount_pct'], campaigns.map((c) => c.row), '\t'), campaigns.length],
    ['stores.json', JSON.stringify({ stores: stores.map((s) => s.json) }, null, 2) + '\n', stores.length],
    ['returns.jsonl', returns.map((r) => JSON.stringify(r.json)).join('\n') + '\n', returns.length],
    ['inventory.sqlite', inventory, WAREHOUSES.length],
    ['business_rules.md', businessRules(stores), 0],
  ];

  fs.mkdirSync(outDir, { recursive: true });
  const summary: SampleSummary = { outDir, seed, files: [], totalBytes: 0 };
  for (const [file, content, records] of files) {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    fs.writeFileSync(path.join(outDir, file), bytes);
    summary.files.push({ file, bytes: bytes.length, records });
    summary.totalBytes += bytes.length;
  }
  return summary;
}

function parseArgs(argv: string[]): { outDir: string; seed: number } {
  let outDir: string | undefined;
  let seed = RETAIL_PARAMETERS.seed;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--seed') {
      const value = argv[++i];
      if (value === undefined || !/^\d+$/.test(value)) throw new Error(`--seed needs a non-negative integer, got ${value ?? 'nothing'}`);
      seed = Number(value);
    } else if (arg.startsWith('-')) {
      throw new Error(`unknown option ${arg} (usage: makeSample [outDir] [--seed N])`);
    } else if (outDir === undefined) {
      outDir = arg;
    } else {
      throw new Error(`unexpected argument ${arg} (usage: makeSample [outDir] [--seed N])`);
    }
  }
  // Compiled to <out>/scripts/makeSample.js; the repository root is two levels up.
  return { outDir: path.resolve(outDir ?? path.join(__dirname, '..', '..', 'media', 'samples', 'retail')), seed };
}

async function main(): Promise<void> {
  const { outDir, seed } = parseArgs(process.argv.slice(2));
  const summary = await generateRetailSample(outDir, seed);
  console.log(`retail sample (seed ${summary.seed}) → ${summary.outDir}`);
  for (const f of summary.files) console.log(`  ${f.file.padEnd(24)} ${String(f.bytes).padStart(9)} bytes  ${f.records > 0 ? `${f.records} records` : ''}`);
  console.log(`  ${'total'.padEnd(24)} ${String(summary.totalBytes).padStart(9)} bytes`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`makeSample: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}

import { seededRandom } from '../sim/random';
import type { BenchmarkEntry } from './types';

/** Schema size for spreading a sample: columns, else tables, else data bytes (kept on one comparable scale). */
export function schemaSizeOf(entry: BenchmarkEntry): number {
  if (entry.columns !== undefined) return entry.columns;
  if (entry.tables !== undefined) return entry.tables * 8;
  return Math.log2(1 + entry.sizeBytes);
}

/**
 * Picks `k` entries spread over schema size and domain: entries sorted by size are cut into `k` strata of
 * near-equal count, and one entry is drawn from each stratum, preferring a domain not drawn yet. The same
 * entries, k and seed always give the same sample.
 */
export function sampleEntries(entries: BenchmarkEntry[], k: number, seed: number): BenchmarkEntry[] {
  if (!Number.isInteger(k) || k < 1) throw new Error(`sample size must be a positive integer, got ${k}`);
  const sorted = [...entries].sort((a, b) => schemaSizeOf(a) - schemaSizeOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (k >= sorted.length) return sorted;
  const random = seededRandom(`bench-env-sample|${seed}`);
  const usedDomains = new Set<string>();
  const picked: BenchmarkEntry[] = [];
  for (let stratum = 0; stratum < k; stratum++) {
    const start = Math.floor((stratum * sorted.length) / k);
    const end = Math.floor(((stratum + 1) * sorted.length) / k);
    const bucket = sorted.slice(start, end);
    const fresh = bucket.filter((entry) => !usedDomains.has(entry.domain));
    const pool = fresh.length > 0 ? fresh : bucket;
    const choice = pool[Math.floor(random() * pool.length)];
    usedDomains.add(choice.domain);
    picked.push(choice);
  }
  return picked;
}

/** Seeded randomness for the simulated models: the same key always gives the same sequence. */
import { createHash } from 'node:crypto';

/** A PRNG (sfc32) seeded from the SHA-256 of a key such as `seed|task|step|model|attempt`. */
export function seededRandom(key: string): () => number {
  const digest = createHash('sha256').update(key).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  return () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const result = (t + d) | 0;
    c = (c + result) | 0;
    return (result >>> 0) / 4294967296;
  };
}

/** Picks one item with probability proportional to its weight; undefined when all weights are zero. */
export function weightedPick<T>(items: Array<{ item: T; weight: number }>, random: () => number): T | undefined {
  const total = items.reduce((sum, i) => sum + Math.max(0, i.weight), 0);
  if (total <= 0) return undefined;
  let r = random() * total;
  for (const { item, weight } of items) {
    r -= Math.max(0, weight);
    if (r < 0) return item;
  }
  return items[items.length - 1].item;
}

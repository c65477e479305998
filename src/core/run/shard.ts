/**
 * Sharded runs: a deterministic, disjoint slice of the task pool by task id, so any batch system (a Kubernetes
 * Indexed Job, a Slurm array, a CI matrix) can run `toffee synthesize … --shard i/N` and `toffee merge` the parts.
 */
import { createHash } from 'node:crypto';

export interface Shard {
  /** 0-based. */
  index: number;
  count: number;
}

/** `i/N` with 0 ≤ i < N; throws a RangeError with the reason otherwise. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new RangeError(`a shard is written i/N (e.g. 0/3), not '${text}'`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (!(count >= 1) || !(index < count)) throw new RangeError(`shard ${text}: need 0 ≤ i < N and N ≥ 1`);
  return { index, count };
}

/** The shard a task id belongs to: the first 48 bits of its SHA-256, mod N (stable across machines and runs). */
export function shardOfTask(taskId: string, count: number): number {
  const digest = createHash('sha256').update(taskId, 'utf8').digest();
  return digest.readUIntBE(0, 6) % count;
}

export function inShard(taskId: string, shard: Shard | undefined): boolean {
  return !shard || shardOfTask(taskId, shard.count) === shard.index;
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

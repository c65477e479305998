/**
 * How far a zip package (an .xlsx) inflates, measured before the workbook reader holds it in memory. ExcelJS
 * reads a workbook whole, at about twenty times its XML's size in memory, so a small file whose parts inflate a
 * thousandfold (a zip bomb) would cost gigabytes. The parts are inflated here as a stream whose output is counted
 * and dropped, stopping at the limit: the sizes the archive declares are not trusted.
 */
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

export interface InflationLimits {
  /** Inflated bytes of all parts together, at most. */
  maxBytes: number;
  /** Inflated bytes per byte of the file, at most, once the parts exceed `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

/** About 4 GB of memory in ExcelJS at the absolute limit; a bomb is caught by the ratio long before. */
export const XLSX_INFLATION_LIMITS: InflationLimits = { maxBytes: 200 * 1024 * 1024, maxRatio: 100, ratioFloorBytes: 32 * 1024 * 1024 };

export type InflationVerdict =
  /** Within the limits, or not a zip this check can read (the workbook reader then says what is wrong). */
  | { ok: true; inflatedBytes?: number; heads?: Map<string, string> }
  | { ok: false; reason: string };

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function centralDirectory(fd: number, fileBytes: number): Entry[] {
  const tailBytes = Math.min(fileBytes, 65_557);
  const tail = Buffer.alloc(tailBytes);
  fs.readSync(fd, tail, 0, tailBytes, fileBytes - tailBytes);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('no zip directory at the end of the file');
  const count = tail.readUInt16LE(end + 10);
  const size = tail.readUInt32LE(end + 12);
  const offset = tail.readUInt32LE(end + 16);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw new Error('a ZIP64 package (over 4 GB or 65,535 parts)');
  if (offset + size > fileBytes) throw new Error('the zip directory points past the end of the file');
  const directory = Buffer.alloc(size);
  fs.readSync(fd, directory, 0, size, offset);
  const entries: Entry[] = [];
  for (let at = 0, n = 0; n < count; n++) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL) throw new Error('a damaged zip directory');
    const nameLength = directory.readUInt16LE(at + 28);
    entries.push({
      method: directory.readUInt16LE(at + 10),
      compressedSize: directory.readUInt32LE(at + 20),
      declaredSize: directory.readUInt32LE(at + 24),
      localOffset: directory.readUInt32LE(at + 42),
      name: directory.toString('utf8', at + 46, at + 46 + nameLength),
    });
    at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  return entries;
}

/** Where an entry's data starts (after its local header). */
function dataOffset(fd: number, entry: Entry): number {
  const header = Buffer.alloc(30);
  fs.readSync(fd, header, 0, 30, entry.localOffset);
  if (header.readUInt32LE(0) !== LOCAL) throw new Error(`a damaged zip entry (${entry.name})`);
  return entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
}

/** Inflates one entry, counting; rejects with 'limit' once `budget` bytes are exceeded. `head` gets its first bytes. */
function inflatedSize(file: string, start: number, entry: Entry, budget: number, head?: { bytes: number; chunks: Buffer[] }): Promise<number> {
  return new Promise((resolve, reject) => {
    if (entry.method === 0) {
      if (head && head.bytes > 0 && entry.compressedSize > 0) {
        const fd = fs.openSync(file, 'r');
        try {
          const bytes = Buffer.alloc(Math.min(head.bytes, entry.compressedSize));
          fs.readSync(fd, bytes, 0, bytes.length, start);
          head.chunks.push(bytes);
        } finally {
          fs.closeSync(fd);
        }
      }
      resolve(entry.compressedSize);
      return;
    }
    if (entry.method !== 8) {
      reject(new Error(`zip entry ${entry.name} uses compression method ${entry.method}`));
      return;
    }
    if (entry.compressedSize === 0) {
      resolve(0);
      return;
    }
    const source = fs.createReadStream(file, { start, end: start + entry.compressedSize - 1 });
    const inflate = zlib.createInflateRaw();
    let total = 0;
    let settled = false;
    const done = (error: Error | undefined, value?: number) => {
      if (settled) return;
      settled = true;
      source.destroy();
      inflate.destroy();
      if (error) reject(error);
      else resolve(value!);
    };
    inflate.on('data', (chunk: Buffer) => {
      if (head && total < head.bytes) head.chunks.push(chunk.subarray(0, head.bytes - total));
      total += chunk.length;
      if (total > budget) done(new Error('limit'));
    });
    inflate.on('end', () => done(undefined, total));
    inflate.on('error', (error) => done(error));
    source.on('error', (error) => done(error));
    source.pipe(inflate);
  });
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}

/**
 * Whether the package stays within the limits when inflated (never holds more than one chunk of it). With
 * `headBytes`, the verdict also keeps the first that many inflated bytes of each part whose name matches `headsOf`
 * (the XLSX reader looks at the namespaces its XML parts declare without inflating them twice).
 */
export async function checkZipInflation(
  file: string,
  limits: InflationLimits = XLSX_INFLATION_LIMITS,
  keep?: { headBytes: number; headsOf: RegExp },
): Promise<InflationVerdict> {
  const fd = fs.openSync(file, 'r');
  let entries: Entry[];
  let starts: number[];
  const fileBytes = fs.fstatSync(fd).size;
  try {
    entries = centralDirectory(fd, fileBytes);
    starts = entries.map((entry) => dataOffset(fd, entry));
  } catch {
    return { ok: true };
  } finally {
    fs.closeSync(fd);
  }
  const cap = Math.min(limits.maxBytes, Math.max(limits.ratioFloorBytes, limits.maxRatio * fileBytes));
  const tooLarge = (inflated: string) =>
    `its parts inflate to ${inflated}, over the limit of ${mib(cap)} for this ${mib(fileBytes)} file ` +
    `(${limits.maxRatio}× its size above ${mib(limits.ratioFloorBytes)}, ${mib(limits.maxBytes)} at most): a zip bomb, or a workbook too large ` +
    'to read whole (save its sheets as CSV, which TOFFEE reads as a stream)';
  const declared = entries.reduce((sum, entry) => sum + entry.declaredSize, 0);
  if (declared > cap) return { ok: false, reason: tooLarge(`${mib(declared)} by their own account`) };
  let total = 0;
  const heads = new Map<string, string>();
  for (const [index, entry] of entries.entries()) {
    const head = keep && keep.headsOf.test(entry.name) ? { bytes: keep.headBytes, chunks: [] as Buffer[] } : undefined;
    try {
      total += await inflatedSize(file, starts[index], entry, cap - total, head);
      if (head) heads.set(entry.name, Buffer.concat(head.chunks).toString('utf8'));
    } catch (error) {
      if ((error as Error).message === 'limit') return { ok: false, reason: tooLarge(`more than ${mib(cap)}, though they declare ${mib(declared)}`) };
      return { ok: true };
    }
  }
  return keep ? { ok: true, inflatedBytes: total, heads } : { ok: true, inflatedBytes: total };
}

/**
 * Which character encoding a text file (CSV, TSV, JSON, JSONL, Markdown, TXT) is in, and reading it as text.
 *
 * A byte-order mark decides first (UTF-8, UTF-16 LE/BE). Otherwise the whole file is checked as strict UTF-8
 * (Node's native validator, chunk by chunk, while the file is hashed anyway). A file that is not valid UTF-8 is
 * read again, byte by byte, to tell two cases apart:
 * - no valid multi-byte UTF-8 sequence at all: a single-byte Western file. Bytes 0x80–0x9F are printable in
 *   Windows-1252 (“ ” € – …) and control codes in ISO-8859-1, so a file using them is Windows-1252 and one that
 *   does not is ISO-8859-1 (the two agree on every other byte; both decode with the WHATWG windows-1252 decoder);
 * - valid multi-byte sequences next to invalid bytes: a UTF-8 file with bytes that are not UTF-8. They are read
 *   as U+FFFD (�) and the diagnostic names the lines, so nothing is replaced silently.
 * Node's built-in TextDecoder covers every encoding named here, so no detector library is needed; a statistical
 * detector would add guesses between single-byte code pages that a Western data file rarely needs.
 */
import * as fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

export type TextEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'iso-8859-1';

/** What the check found; `invalidLines` only for a UTF-8 file with bytes that are not UTF-8. */
export interface EncodingReport {
  encoding: TextEncoding;
  /** Bytes of the byte-order mark at the start (skipped when decoding). */
  bomBytes: number;
  /** Lines (1-based) holding bytes that are not UTF-8, up to 10; `invalidLineCount` counts all of them. */
  invalidLines: number[];
  invalidLineCount: number;
  /** Lines holding non-ASCII characters (single-byte files), for the note in the profile. */
  nonAsciiLineCount: number;
  /** Control bytes that never occur in text (NUL, 0x01–0x08, 0x0E–0x1F except ESC), over the whole file. */
  controlBytes: number;
  sizeBytes: number;
}

/** The WHATWG decoder label for each encoding. */
const DECODER_LABEL: Record<TextEncoding, string> = {
  'utf-8': 'utf-8',
  'utf-8-bom': 'utf-8',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
  'windows-1252': 'windows-1252',
  'iso-8859-1': 'windows-1252',
};

/** How the profile names each encoding. */
export const ENCODING_NAMES: Record<TextEncoding, string> = {
  'utf-8': 'UTF-8',
  'utf-8-bom': 'UTF-8 with a byte-order mark',
  'utf-16le': 'UTF-16 LE',
  'utf-16be': 'UTF-16 BE',
  'windows-1252': 'Windows-1252',
  'iso-8859-1': 'ISO-8859-1 (latin-1)',
};

const CHUNK_BYTES = 1 << 20;

export function bomOf(head: Uint8Array): { encoding: TextEncoding; bytes: number } | undefined {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8-bom', bytes: 3 };
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bytes: 2 };
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bytes: 2 };
  return undefined;
}

/** Bytes at the end of `chunk` that start a UTF-8 sequence the chunk does not finish (0–3). */
function unfinishedTail(chunk: Buffer): number {
  for (let back = 1; back <= Math.min(3, chunk.length); back++) {
    const byte = chunk[chunk.length - back];
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: look further back
    if (byte < 0x80) return 0;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

function isControl(byte: number): boolean {
  return byte <= 0x08 || (byte >= 0x0e && byte <= 0x1f && byte !== 0x1b);
}

/** One pass: SHA-256 of the file and whether it is strict UTF-8 (after any BOM). */
async function hashAndValidate(file: string): Promise<{ sha256: string; validUtf8: boolean; head: Buffer; sizeBytes: number; controlBytes: number }> {
  const hash = createHash('sha256');
  let carry: Buffer = Buffer.alloc(0);
  let validUtf8 = true;
  let head: Buffer | undefined;
  let sizeBytes = 0;
  let controlBytes = 0;
  for await (const raw of fs.createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
    const chunk = raw as Buffer;
    hash.update(chunk);
    sizeBytes += chunk.length;
    let bytes = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    if (!head) {
      head = Buffer.from(chunk.subarray(0, 4));
      const bom = bomOf(bytes);
      if (bom) bytes = bytes.subarray(bom.bytes);
    }
    if (!validUtf8) continue;
    const tail = unfinishedTail(bytes);
    const body = tail ? bytes.subarray(0, bytes.length - tail) : bytes;
    if (!isUtf8(body)) validUtf8 = false;
    carry = tail ? Buffer.from(bytes.subarray(bytes.length - tail)) : Buffer.alloc(0);
    // NUL never occurs in text (UTF-16 aside); counting it is native-fast, unlike a loop over every byte.
    for (let i = body.indexOf(0); i !== -1; i = body.indexOf(0, i + 1)) controlBytes++;
  }
  if (carry.length > 0) validUtf8 = false; // the file ends inside a character
  return { sha256: hash.digest('hex'), validUtf8, head: head ?? Buffer.alloc(0), sizeBytes, controlBytes };
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the bytes there are not one. */
function utf8SequenceAt(bytes: Buffer, i: number, end: number): number {
  const lead = bytes[i];
  let need: number;
  let min: number;
  if (lead >= 0xc2 && lead <= 0xdf) [need, min] = [1, 0x80];
  else if (lead >= 0xe0 && lead <= 0xef) [need, min] = [2, 0x800];
  else if (lead >= 0xf0 && lead <= 0xf4) [need, min] = [3, 0x10000];
  else return 0;
  let code = lead & (0x3f >> need);
  for (let k = 1; k <= need; k++) {
    if (i + k >= end) return 0;
    const next = bytes[i + k];
    if ((next & 0xc0) !== 0x80) return 0;
    code = (code << 6) | (next & 0x3f);
  }
  if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return need + 1;
}

/** The byte-by-byte pass over a file that is not strict UTF-8. */
async function classifyNonUtf8(file: string, sizeBytes: number): Promise<EncodingReport> {
  let line = 1;
  let multiByte = 0;
  let c1Bytes = 0;
  let controlBytes = 0;
  const invalidLines: number[] = [];
  let invalidLineCount = 0;
  let nonAsciiLineCount = 0;
  let lineInvalid = false;
  let lineNonAscii = false;
  let carry: Buffer = Buffer.alloc(0);
  const endLine = () => {
    if (lineInvalid) {
      invalidLineCount++;
      if (invalidLines.length < 10) invalidLines.push(line);
    }
    if (lineNonAscii) nonAsciiLineCount++;
    lineInvalid = lineNonAscii = false;
    line++;
  };
  const scan = (bytes: Buffer, final: boolean): Buffer => {
    // Up to 3 bytes of an unfinished sequence wait for the next chunk.
    const end = final ? bytes.length : bytes.length - unfinishedTail(bytes);
    for (let i = 0; i < end; i++) {
      const byte = bytes[i];
      if (byte < 0x80) {
        if (byte === 0x0a) endLine();
        else if (isControl(byte)) controlBytes++;
        continue;
      }
      lineNonAscii = true;
      if (byte <= 0x9f) c1Bytes++;
      const length = utf8SequenceAt(bytes, i, end);
      if (length > 0) {
        multiByte++;
        i += length - 1;
      } else lineInvalid = true;
    }
    return Buffer.from(bytes.subarray(end));
  };
  let first = true;
  for await (const raw of fs.createReadStream(file, { highWaterMark: CHUNK_BYTES })) {
    let bytes = carry.length ? Buffer.concat([carry, raw as Buffer]) : (raw as Buffer);
    if (first) {
      first = false;
      const bom = bomOf(bytes);
      if (bom?.encoding === 'utf-8-bom') bytes = bytes.subarray(3);
    }
    carry = scan(bytes, false);
  }
  if (carry.length) scan(carry, true);
  if (lineInvalid || lineNonAscii) endLine();
  const base = { bomBytes: 0, nonAsciiLineCount, controlBytes, sizeBytes };
  if (multiByte > 0) return { ...base, encoding: 'utf-8', invalidLines, invalidLineCount };
  return { ...base, encoding: c1Bytes > 0 ? 'windows-1252' : 'iso-8859-1', invalidLines: [], invalidLineCount: 0 };
}

/** SHA-256 and encoding of a text file, reading it once (twice when it is not UTF-8). */
export async function inspectTextFile(file: string): Promise<{ sha256: string; report: EncodingReport }> {
  const pass = await hashAndValidate(file);
  const bom = bomOf(pass.head);
  if (bom && bom.encoding !== 'utf-8-bom') {
    // UTF-16: NUL bytes are its ASCII half, not binary content.
    return { sha256: pass.sha256, report: { encoding: bom.encoding, bomBytes: bom.bytes, invalidLines: [], invalidLineCount: 0, nonAsciiLineCount: 0, controlBytes: 0, sizeBytes: pass.sizeBytes } };
  }
  if (pass.validUtf8) {
    const encoding: TextEncoding = bom ? 'utf-8-bom' : 'utf-8';
    return { sha256: pass.sha256, report: { encoding, bomBytes: bom?.bytes ?? 0, invalidLines: [], invalidLineCount: 0, nonAsciiLineCount: 0, controlBytes: pass.controlBytes, sizeBytes: pass.sizeBytes } };
  }
  const report = await classifyNonUtf8(file, pass.sizeBytes);
  if (bom) report.bomBytes = bom.bytes;
  return { sha256: pass.sha256, report };
}

/** Whether the file's bytes are not text at all (a binary file with a text file's name). */
export function looksBinaryText(report: EncodingReport): boolean {
  if (report.encoding === 'utf-16le' || report.encoding === 'utf-16be') return false;
  // Text holds almost no control codes; random or compressed bytes hold one in about every nine.
  return report.sizeBytes > 0 && report.controlBytes / report.sizeBytes > 0.001;
}

/** The note (and its severity) the profile gets for a file's encoding; undefined for plain UTF-8. */
export function encodingNote(report: EncodingReport): { severity: 'info' | 'warning'; message: string; line?: number } | undefined {
  if (report.encoding === 'utf-8' && report.invalidLineCount > 0) {
    const lines = report.invalidLines.join(', ') + (report.invalidLineCount > report.invalidLines.length ? ` and ${report.invalidLineCount - report.invalidLines.length} more` : '');
    return {
      severity: 'warning',
      message:
        `The file is UTF-8, but ${report.invalidLineCount} line(s) hold bytes that are not valid UTF-8 (lines ${lines}); ` +
        'each such byte was read as U+FFFD (�). Re-save the file as UTF-8 to keep those characters.',
      line: report.invalidLines[0],
    };
  }
  if (report.encoding === 'windows-1252' || report.encoding === 'iso-8859-1') {
    return {
      severity: 'info',
      message:
        `Not UTF-8: read as ${ENCODING_NAMES[report.encoding]} (${report.nonAsciiLineCount} line(s) hold non-ASCII characters` +
        `${report.encoding === 'windows-1252' ? ', some in the 0x80–0x9F range Windows-1252 uses for “ ” € and the like' : ''}).`,
    };
  }
  if (report.encoding === 'utf-16le' || report.encoding === 'utf-16be') return { severity: 'info', message: `Read as ${ENCODING_NAMES[report.encoding]} (byte-order mark).` };
  return undefined;
}

/**
 * Decodes a file's bytes in `encoding` (a BOM at the start dropped). Always through the streaming path: Node 20's
 * one-shot windows-1252 decode takes a latin-1 shortcut that leaves 0x80–0x9F as control codes (“ → U+0093).
 */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  const decoder = new TextDecoder(DECODER_LABEL[encoding]);
  return decoder.decode(bytes, { stream: true }) + decoder.decode();
}

/** The first bytes of a file as text; a character the bytes end inside is left out. */
export function decodeHead(head: Uint8Array, encoding: TextEncoding): string {
  return new TextDecoder(DECODER_LABEL[encoding]).decode(head, { stream: true });
}

/** The whole file as text. */
export async function readTextFile(file: string, encoding: TextEncoding): Promise<string> {
  if (encoding === 'utf-8' || encoding === 'utf-8-bom') return fs.promises.readFile(file, 'utf8');
  return decodeText(await fs.promises.readFile(file), encoding);
}

/**
 * A readable stream of the file's text in string chunks, for streaming parsers. UTF-8 goes straight through
 * Node's decoder; other encodings through a WHATWG TextDecoder that keeps characters whole across chunks.
 */
export function createTextReadStream(file: string, encoding: TextEncoding, highWaterMark: number): NodeJS.ReadableStream {
  if (encoding === 'utf-8') return fs.createReadStream(file, { encoding: 'utf8', highWaterMark });
  // The byte-order mark is no text: a parser would read it as part of the first field (`\uFEFF"Title"` is no quoted field).
  if (encoding === 'utf-8-bom') return fs.createReadStream(file, { encoding: 'utf8', highWaterMark, start: 3 });
  const decoder = new TextDecoder(DECODER_LABEL[encoding]);
  const source = fs.createReadStream(file, { highWaterMark });
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      done(null, decoder.decode(chunk, { stream: true }));
    },
    flush(done) {
      done(null, decoder.decode());
    },
  });
  transform.setEncoding('utf8');
  source.on('error', (error) => transform.destroy(error));
  const stream = source.pipe(transform);
  // Destroying the text stream (a parser aborting) stops the file read too.
  stream.on('close', () => source.destroy());
  return stream;
}

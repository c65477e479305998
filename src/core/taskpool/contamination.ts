/**
 * Contamination audit: a task must not come from data or questions a benchmark already holds. A benchmark folder
 * is read into ContaminationReferences (SHA-256 of every file; question-like string fields of its JSON/JSONL);
 * tasks whose core files are byte-identical to a benchmark file, or whose question shares a 13-gram with a
 * benchmark question, are contaminated.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EnvironmentProfile } from '../env/types';
import type { ContaminationReference, TaskSpec } from './types';

const QUESTION_KEYS = /^(question|questions|query|prompt|instruction|nl|utterance|text|problem)$/i;
const MAX_FILES = 20_000;
const MAX_PARSE_BYTES = 64 * 1024 * 1024;

function collectQuestions(value: unknown, out: string[], key = ''): void {
  if (typeof value === 'string') {
    if (QUESTION_KEYS.test(key) && value.trim() !== '') out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectQuestions(item, out, key);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collectQuestions(v, out, k);
  }
}

/** Reads a benchmark folder (recursively) into one reference; unreadable or malformed files are noted, not fatal. */
export function readBenchmarkFolder(dir: string): { reference: ContaminationReference; notes: string[] } {
  const reference: ContaminationReference = { source: dir, questions: [], fileHashes: [] };
  const notes: string[] = [];
  const stack = [dir];
  let files = 0;
  while (stack.length > 0 && files < MAX_FILES) {
    const current = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(current, { withFileTypes: true });
    } catch (error) {
      notes.push(`cannot read ${current}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        stack.push(full);
        continue;
      }
      if (!entry.isFile()) continue;
      files++;
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(full);
      } catch (error) {
        notes.push(`cannot read ${full}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      reference.fileHashes.push(createHash('sha256').update(bytes).digest('hex'));
      const lower = entry.name.toLowerCase();
      if (bytes.length > MAX_PARSE_BYTES || !(lower.endsWith('.json') || lower.endsWith('.jsonl'))) continue;
      const text = bytes.toString('utf8');
      const docs: unknown[] = [];
      try {
        if (lower.endsWith('.json')) docs.push(JSON.parse(text));
        else for (const line of text.split('\n')) if (line.trim() !== '') docs.push(JSON.parse(line));
      } catch {
        notes.push(`${full} is not valid JSON; only its hash is used`);
      }
      for (const doc of docs) collectQuestions(doc, reference.questions);
    }
  }
  return { reference, notes };
}

const tokensOf = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

export function nGrams(text: string, n = 13): Set<string> {
  const tokens = tokensOf(text);
  const grams = new Set<string>();
  for (let i = 0; i + n <= tokens.length; i++) grams.add(tokens.slice(i, i + n).join(' '));
  // A question shorter than n tokens is one gram: an exact copy is still caught.
  if (tokens.length > 0 && tokens.length < n) grams.add(tokens.join(' '));
  return grams;
}

/** Why each contaminated task is contaminated (task id → reason). */
export function auditContamination(tasks: TaskSpec[], profile: EnvironmentProfile, references: ContaminationReference[]): Map<string, string> {
  const reasons = new Map<string, string>();
  if (references.length === 0) return reasons;
  const hashSource = new Map<string, string>();
  for (const ref of references) for (const hash of ref.fileHashes) hashSource.set(hash.toLowerCase(), ref.source);
  const gramSource = new Map<string, string>();
  for (const ref of references) for (const question of ref.questions) for (const gram of nGrams(question)) gramSource.set(gram, ref.source);
  const fileOfItem = new Map<string, { file: string; sha256: string }>();
  for (const file of profile.files) for (const item of file.produced) fileOfItem.set(item, file);
  for (const task of tasks) {
    const items = [...task.tables, ...(task.documents ?? []).map((d) => d.document)];
    const copied = items.map((item) => fileOfItem.get(item)).find((file) => file && hashSource.has(file.sha256.toLowerCase()));
    if (copied) {
      reasons.set(task.id, `contaminated: ${copied.file} is identical (SHA-256) to a file in ${hashSource.get(copied.sha256.toLowerCase())}`);
      continue;
    }
    for (const gram of nGrams(task.question)) {
      const source = gramSource.get(gram);
      if (source) {
        reasons.set(task.id, `contaminated: question shares a 13-gram with a question in ${source} ("${gram}")`);
        break;
      }
    }
  }
  return reasons;
}

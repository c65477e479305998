/**
 * One writer per run folder: `events.lock` holds the writer's pid, host and a random token. Created with
 * O_EXCL; a lock left by a dead process on this host is taken over; a live one is refused with a clear error.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';

export interface LockInfo {
  pid: number;
  hostname: string;
  token: string;
  acquiredAt: string;
}

export class RunLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockInfo | undefined,
    detail: string,
  ) {
    super(detail);
    this.name = 'RunLockedError';
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(lockPath: string): { info?: LockInfo; text: string } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockInfo>;
    if (typeof parsed.pid === 'number' && typeof parsed.hostname === 'string' && typeof parsed.token === 'string') {
      return { info: parsed as LockInfo, text };
    }
  } catch {
    // fall through: unreadable content
  }
  return { text };
}

export interface AcquireOptions {
  /** Take the lock even from a live holder or another host (a user who knows the holder is gone). */
  breakLock?: boolean;
}

export interface WriterLock {
  readonly path: string;
  readonly info: LockInfo;
  /** What a takeover replaced, for the record. */
  readonly tookOverFrom?: LockInfo;
  release(): void;
}

function tryCreate(lockPath: string, info: LockInfo): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, JSON.stringify(info) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}

export function acquireWriterLock(lockPath: string, options: AcquireOptions = {}): WriterLock {
  const info: LockInfo = {
    pid: process.pid,
    hostname: os.hostname(),
    token: crypto.randomBytes(8).toString('hex'),
    acquiredAt: new Date().toISOString(),
  };
  let tookOverFrom: LockInfo | undefined;
  // A few rounds: each round either creates the lock or removes one stale holder.
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(lockPath, info)) return makeLock(lockPath, info, tookOverFrom);
    const current = readLock(lockPath);
    if (!current) continue; // released between our create and read
    const holder = current.info;
    if (!options.breakLock) {
      if (holder && holder.pid === process.pid && holder.hostname === info.hostname) {
        throw new RunLockedError(lockPath, holder, `run is already open for writing in this process (${lockPath})`);
      }
      if (holder && holder.hostname !== info.hostname) {
        throw new RunLockedError(
          lockPath,
          holder,
          `run is locked by pid ${holder.pid} on host ${holder.hostname}; if that writer is gone, delete ${lockPath}`,
        );
      }
      if (holder && isProcessAlive(holder.pid)) {
        throw new RunLockedError(
          lockPath,
          holder,
          `run is being written by live process ${holder.pid} (since ${holder.acquiredAt}); ` +
            `stop it first, or delete ${lockPath} if that pid is not a TOFFEE writer`,
        );
      }
    }
    // Stale (dead pid or unreadable lock): move it aside atomically, then check we moved what we judged stale,
    // so two processes taking over at once cannot both win.
    const aside = `${lockPath}.stale-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
    try {
      fs.renameSync(lockPath, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = fs.readFileSync(aside, 'utf8');
    if (moved !== current.text) {
      // Someone else took over first and we moved their fresh lock: put it back and report it as live.
      try {
        fs.linkSync(aside, lockPath);
      } catch {
        // they will notice their lock is gone on release; nothing safer to do
      }
      fs.rmSync(aside, { force: true });
      throw new RunLockedError(lockPath, readLock(lockPath)?.info, `run was just taken over by another writer (${lockPath})`);
    }
    fs.rmSync(aside, { force: true });
    tookOverFrom = holder;
  }
  throw new RunLockedError(lockPath, readLock(lockPath)?.info, `could not acquire ${lockPath}: it keeps changing`);
}

function makeLock(lockPath: string, info: LockInfo, tookOverFrom: LockInfo | undefined): WriterLock {
  let released = false;
  return {
    path: lockPath,
    info,
    tookOverFrom,
    release() {
      if (released) return;
      released = true;
      // Remove only our own lock: after a forced takeover the file may belong to someone else.
      const current = readLock(lockPath);
      if (current?.info?.token === info.token) fs.rmSync(lockPath, { force: true });
    },
  };
}

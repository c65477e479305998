import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every entry under `dir` (files, folders, links) with a hash of its content: equal maps, byte-identical folders. */
export function hashFolder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (relative: string) => {
    const absolute = path.join(dir, relative);
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      const full = path.join(dir, child);
      if (entry.isSymbolicLink()) out[child] = `link → ${fs.readlinkSync(full)}`;
      else if (entry.isDirectory()) {
        out[`${child}/`] = 'folder';
        visit(child);
      } else out[child] = createHash('sha256').update(fs.readFileSync(full)).digest('hex');
    }
  };
  visit('');
  return out;
}

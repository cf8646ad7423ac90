/**
 * For the tests of the processes the server starts (the render process, the image process): the
 * ids of this process's children now alive, read from /proc.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function childProcessIds(): number[] {
  return readdirSync(`/proc/${process.pid}/task`).flatMap((task) => {
    try {
      return readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8')
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
}

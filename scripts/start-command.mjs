/**
 * How `npm start` runs the server, read from package.json's `start` script, so that the
 * browser tests and the bench run the server exactly as production does: the same Node flags
 * (`--max-semi-space-size`, decision 015) and the same entry, `scripts/start.mjs`.
 */
import { readFileSync } from 'node:fs';

export function serverArgs() {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const [command, ...args] = scripts.start.trim().split(/\s+/);
  if (command !== 'node' || !args.includes('scripts/start.mjs')) {
    throw new Error(`package.json's start script is not "node [flags] scripts/start.mjs": ${scripts.start}`);
  }
  return args;
}

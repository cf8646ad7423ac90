/**
 * The server suite's global setup and teardown: a folder for the run's log sink (log-sink.ts),
 * and, once every file has run, the check that no line of it holds an e-mail address or a signed
 * token (the key of a link). A line that does fails the run, named with its file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/** An e-mail address as the tests write them (example.org, sterling.test, evil.test...). */
export const ADDRESS = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
/** A signed token (src/server/kit/http/signed-tokens.ts): a link's key, which a log must never hold. */
export const TOKEN = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{43}/;

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'server-logs-'));
  project.provide('serverLogDir', dir);
  return () => {
    const found: string[] = [];
    let lines = 0;
    for (const file of readdirSync(dir)) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        if (line === '') continue;
        lines += 1;
        if (ADDRESS.test(line) || TOKEN.test(line)) found.push(`${file}: ${line.slice(0, 300)}`);
      }
    }
    if (found.length > 0) {
      // An error thrown here is printed but does not fail the run: the exit code says it.
      process.exitCode = 1;
      throw new Error(
        `The server logs of this run hold an e-mail address or a signed token in ${found.length} of ${lines} lines (kept in ${dir}):\n${found.slice(0, 10).join('\n')}`,
      );
    }
    console.log(`Server logs: ${lines} lines, no e-mail address, no signed token.`);
    // KEEP_SERVER_LOGS=1 keeps them to read.
    if (process.env.KEEP_SERVER_LOGS !== '1') rmSync(dir, { recursive: true, force: true });
    else console.log(`Server logs kept in ${dir}`);
  };
}

/**
 * The race for DATA_DIR/.app-secret, made certain: another process puts its secret in place
 * just after this one found none. This process must then use that secret, not replace it
 * (a replaced secret would leave the other process signing links nobody else accepts).
 */
import * as realFs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Runs once, the first time the secret file is found missing. */
let whenMissing: ((file: string) => void) | undefined;

function missing(path: unknown) {
  if (typeof path !== 'string' || !path.endsWith('.app-secret') || !whenMissing) return;
  const run = whenMissing;
  whenMissing = undefined;
  run(path);
}

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof realFs>();
  const existsSync: typeof fs.existsSync = (path) => {
    const found = fs.existsSync(path);
    if (!found) missing(path);
    return found;
  };
  const readFileSync = ((path: Parameters<typeof fs.readFileSync>[0], ...rest: unknown[]) => {
    try {
      return (fs.readFileSync as (...args: unknown[]) => unknown)(path, ...rest);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') missing(path);
      throw error;
    }
  }) as typeof fs.readFileSync;
  const mocked = { ...fs, existsSync, readFileSync };
  return { ...mocked, default: mocked };
});

const { loadConfig } = await import('../../src/server/kit/config');

afterEach(() => {
  whenMissing = undefined;
});

describe('two processes creating the secret at once', () => {
  it('the one that comes second uses the secret of the first, and leaves it in place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-race-'));
    const winners = 'w'.repeat(43);
    whenMissing = (file) => realFs.writeFileSync(file, winners, { mode: 0o600 });
    expect(loadConfig({ DATA_DIR: dir }).appSecret).toBe(winners);
    expect(readFileSync(join(dir, '.app-secret'), 'utf8')).toBe(winners);
    expect(readdirSync(dir)).toEqual(['.app-secret']);
  });

  it('with no other process, writes its own secret', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-race-'));
    const secret = loadConfig({ DATA_DIR: dir }).appSecret;
    expect(readFileSync(join(dir, '.app-secret'), 'utf8')).toBe(secret);
    // A later start reads it back.
    expect(loadConfig({ DATA_DIR: dir }).appSecret).toBe(secret);
  });
});

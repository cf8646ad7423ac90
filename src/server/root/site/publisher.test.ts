/**
 * The publisher's poll (decision 047): a publication being rendered is not asked for twice, and a
 * render that failed is tried again after a pause, not at every look of the poll.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createPublisher, type Publisher } from './publisher';
import type { StaticSite } from './static-files';

/** A build folder with a render build's file (never loaded: every read here fails first). */
function buildDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'publisher-test-'));
  mkdirSync(join(dir, 'render'));
  writeFileSync(join(dir, 'render', 'index.js'), '');
  return dir;
}

describe('the publisher’s poll', () => {
  let publisher: Publisher | undefined;
  afterEach(async () => {
    await publisher?.stop();
  });

  it('does not render a failed publication again at every look, but after the pause', async () => {
    let reads = 0;
    publisher = createPublisher({
      site: {} as StaticSite,
      buildDir: buildDir(),
      publicUrl: 'https://www.example.com',
      log: pino({ level: 'silent' }),
      read: async () => {
        reads += 1;
        throw new Error('the database went away');
      },
      version: async () => 7,
      pollMs: 10,
      renderRetryMs: 300,
    });
    const failed = Date.now();
    await publisher.start();
    expect(reads).toBe(1);
    // Many looks of the poll, the counter unchanged: no read before the pause is over.
    await sleep(200);
    expect(reads).toBe(1);
    // Then one more try (waited for, whatever the machine's load).
    const end = Date.now() + 10_000;
    while (reads < 2 && Date.now() < end) await sleep(20);
    expect(reads).toBe(2);
    expect(Date.now() - failed).toBeGreaterThanOrEqual(300);
    expect(publisher.servedVersion()).toBeUndefined();
  });
});

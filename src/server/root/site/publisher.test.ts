/**
 * The publisher's poll (decision 047): a publication being rendered is not asked for twice, and a
 * render that failed is tried again after a pause, not at every look of the poll; and a start whose
 * publication is what the build prerendered renders nothing (decision 049).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { childProcessIds } from '../../kit/child-processes.fixture';
import { createPublisher, type Publisher } from './publisher';
import type { StaticSite } from './static-files';
import { articlesDigest, type RepositoryArticle } from '../../kit/repository-articles';

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

  it('renders nothing at start when the publication is the build’s, and renders every later one', async () => {
    let reads = 0;
    const asked: number[] = [];
    const served: unknown[] = [];
    publisher = createPublisher({
      site: { publish: (files: unknown) => served.push(files) } as unknown as StaticSite,
      buildDir: buildDir(),
      publicUrl: 'https://www.example.com',
      log: pino({ level: 'silent' }),
      read: async () => {
        reads += 1;
        return { version: 3 + reads, published: { articles: [] }, redirects: [] };
      },
      version: async () => 4,
      asBuilt: async ({ version }) => {
        asked.push(version);
        return true;
      },
      pollMs: 0,
    });
    await publisher.start();
    expect(asked).toEqual([4]);
    expect(served).toEqual([]);
    expect(publisher.servedVersion()).toBe(4);
    // A later publication is rendered whatever it holds (the empty render build here fails it):
    // the build's pages are asked about once, at start.
    await publisher.republish();
    expect(reads).toBe(2);
    expect(asked).toEqual([4]);
    expect(publisher.servedVersion()).toBe(4);
  });
});

async function gone(pids: number[]): Promise<boolean> {
  const end = Date.now() + 10_000;
  while (Date.now() < end) {
    if (!pids.some((pid) => childProcessIds().includes(pid))) return true;
    await sleep(20);
  }
  return false;
}

describe('a build without its render build', () => {
  let publisher: Publisher | undefined;
  afterEach(async () => {
    await publisher?.stop();
  });

  it('still reads each publication (what depends on it stays current), and renders nothing', async () => {
    const before = childProcessIds();
    let reads = 0;
    publisher = createPublisher({
      site: {} as StaticSite,
      buildDir: mkdtempSync(join(tmpdir(), 'publisher-test-')),
      publicUrl: 'https://www.example.com',
      log: pino({ level: 'silent' }),
      read: async () => {
        reads += 1;
        return { version: reads, published: { articles: [] }, redirects: [] };
      },
      version: async () => 1,
      pollMs: 0,
    });
    await publisher.start();
    await publisher.republish();
    expect(reads).toBe(2);
    expect(childProcessIds().filter((pid) => !before.includes(pid))).toEqual([]);
    expect(publisher.servedVersion()).toBeUndefined();
  });
});

describe('the render process', () => {
  let publisher: Publisher | undefined;
  afterEach(async () => {
    await publisher?.stop();
  });
  const publisherFor = (renderIdleMs: number) =>
    createPublisher({
      site: {} as StaticSite,
      buildDir: buildDir(),
      publicUrl: 'https://www.example.com',
      log: pino({ level: 'silent' }),
      read: async () => ({ version: 1, published: { articles: [] }, redirects: [] }),
      version: async () => 1,
      pollMs: 0,
      renderIdleMs,
    });

  it('is kept for the next publication, then ends on its own when none comes', async () => {
    const before = childProcessIds();
    publisher = publisherFor(300);
    await publisher.start();
    const started = childProcessIds().filter((pid) => !before.includes(pid));
    expect(started).toHaveLength(1);
    // Ended once idle, with the server still running.
    expect(await gone(started)).toBe(true);
  });

  it('ends when the publisher stops', async () => {
    const before = childProcessIds();
    publisher = publisherFor(60_000);
    await publisher.start();
    const started = childProcessIds().filter((pid) => !before.includes(pid));
    expect(started).toHaveLength(1);
    await publisher.stop();
    expect(await gone(started)).toBe(true);
  });
});

describe('the digest of the articles the build prerendered', () => {
  const article = (slug: string, extra: Partial<RepositoryArticle> = {}): RepositoryArticle => ({
    slug,
    title: `Title of ${slug}`,
    date: '2025-06-15',
    summary: 'A summary.',
    body: 'Some words.',
    ...extra,
  });

  it('is the same whatever the order, and changes with any field of any article', () => {
    const both = articlesDigest([article('a'), article('b')]);
    expect(articlesDigest([article('b'), article('a')])).toBe(both);
    expect(articlesDigest([article('a'), article('b', { body: 'Some words!' })])).not.toBe(both);
    expect(articlesDigest([article('a'), article('b', { title: 'Other' })])).not.toBe(both);
    expect(articlesDigest([article('a'), article('b', { summary: 'Other.' })])).not.toBe(both);
    expect(articlesDigest([article('a'), article('b', { date: '2025-06-16' })])).not.toBe(both);
    expect(articlesDigest([article('a'), article('b', { taxYear: '2025-26' })])).not.toBe(both);
    expect(articlesDigest([article('a')])).not.toBe(both);
    expect(articlesDigest([article('a'), article('c')])).not.toBe(both);
  });
});

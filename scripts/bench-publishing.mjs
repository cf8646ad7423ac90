/**
 * The bench's publishing part (issue #25, decision 047): how long an article takes from the
 * owner's "Publish now" to being served, with no rebuild and no restart. Two server processes share
 * one throwaway PostgreSQL database (each reading the publication counter every PUBLISH_POLL_MS,
 * its default 250 ms); the owner writes an article through instance A's console API and publishes it;
 * the time runs from the publish request's start until both instances answer the article's page
 * with 200 (each asked every 20 ms). Five articles, one after another. Then the same with one
 * instance on the embedded PostgreSQL (the cluster of its own DATA_DIR). Beside each: the time until instance A alone serves it (its own render, with
 * no counter to wait for), the anchor the cross-instance time is read against (decision 027).
 * Target: every article live on every instance within 2 s. Memory: each server's peak RSS, its
 * render process's, and on the embedded PostgreSQL the database's peak PSS and the sum of the two
 * peaks (scripts/bench-process.mjs).
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ownerApi } from './bench-newsletter.mjs';
import {
  childrenPeakRssMb,
  peakRssMb,
  sampleDatabasePss,
  stop,
  sumMb,
  waitReady,
} from './bench-process.mjs';

export const PUBLISHING_TARGETS = { liveMs: 2000 };

export const PUBLISHING_COLUMNS = [
  'db',
  'instances',
  'articles',
  'ownLiveP50Ms',
  'ownLiveMaxMs',
  'allLiveP50Ms',
  'allLiveMaxMs',
  'peakRssMb',
  'renderPeakRssMb',
  'dbPeakPssMb',
  'peakSumMb',
];

const ARTICLES = 5;

function startServer(args, env) {
  return spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
  });
}

/** Resolves with the time (ms from `since`) at which `url` first answers 200; fails after 30 s. */
async function liveAt(url, since) {
  const end = since + 30_000;
  while (performance.now() < end) {
    if ((await fetch(url)).status === 200) return performance.now() - since;
    await sleep(20);
  }
  throw new Error(`${url} was not live after 30 s`);
}

const ARTICLE_BODY = [
  'The new tax year brings a few changes worth knowing before you next review your allocation.',
  '',
  '## What changed',
  '',
  'The **capital gains allowance** stays at £3,000, and the rates are 18% and 24%.',
  '',
  '- Keep records of every disposal.',
  '- Check the same-day and 30-day rules.',
  '',
  'More in [our guide](/resources).',
].join('\n');

async function runOn(label, instances, databaseUrl, o) {
  const secret = randomBytes(32).toString('base64url');
  const dirs = [];
  const servers = [];
  const bases = [];
  let database;
  try {
    for (let i = 0; i < instances; i += 1) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-publishing-'));
      dirs.push(dir);
      const port = o.port + i;
      const env = {
        DATA_DIR: dir,
        DATABASE_URL: databaseUrl ?? '',
        PORT: String(port),
        PUBLIC_URL: `http://localhost:${o.port}`,
        APP_SECRET: secret,
        OWNER_EMAIL: 'owner@example.com',
        MAIL_FROM: 'hello@example.com',
      };
      const base = `http://127.0.0.1:${port}`;
      // One at a time: the first start makes the tables and imports the repository's articles.
      const server = startServer(o.serverArgs, env);
      servers.push(server);
      bases.push(base);
      await waitReady(base, server, 60_000);
    }
    // The embedded database's memory (one instance), from its start with the server.
    database = databaseUrl ? undefined : sampleDatabasePss(dirs[0]);
    const api = await ownerApi(bases[0], {
      DATA_DIR: dirs[0],
      DATABASE_URL: databaseUrl ?? '',
      PUBLIC_URL: `http://localhost:${o.port}`,
      APP_SECRET: secret,
      OWNER_EMAIL: 'owner@example.com',
      MAIL_FROM: 'hello@example.com',
    });
    const own = [];
    const all = [];
    for (let n = 1; n <= ARTICLES; n += 1) {
      const slug = `bench-article-${label.toLowerCase()}-${n}-${Date.now()}`;
      const created = await api('POST', '/articles', {
        title: `Bench article ${n}: the new tax year`,
        summary: 'What the new tax year means for a bitcoin allocation, in five minutes.',
        slug,
        date: '2026-11-28',
        taxYear: '2026-27',
        body: ARTICLE_BODY,
      });
      const path = `/resources/articles/${slug}`;
      const started = performance.now();
      const published = api('POST', `/articles/${created.id}/publish`, { version: created.version });
      const times = await Promise.all(bases.map((base) => liveAt(`${base}${path}`, started)));
      await published;
      own.push(times[0]);
      all.push(Math.max(...times));
      o.log(`Publishing ${label}: article ${n} live here in ${Math.round(times[0])} ms, everywhere in ${Math.round(Math.max(...times))} ms`);
    }
    const sorted = (xs) => [...xs].sort((a, b) => a - b);
    const p50 = (xs) => Math.round(sorted(xs)[Math.floor((xs.length - 1) / 2)]);
    const peak = Math.max(...servers.map((s) => peakRssMb(s.pid)));
    const dbPeak = await database?.stop();
    return {
      db: label,
      instances,
      articles: ARTICLES,
      ownLiveP50Ms: p50(own),
      ownLiveMaxMs: Math.round(Math.max(...own)),
      allLiveP50Ms: p50(all),
      allLiveMaxMs: Math.round(Math.max(...all)),
      peakRssMb: peak,
      // The render process's own (decision 049), still alive for its idle minute after the last render.
      renderPeakRssMb: Math.max(...servers.map((s) => childrenPeakRssMb(s.pid))),
      ...(database ? { dbPeakPssMb: dbPeak, peakSumMb: sumMb(peak, dbPeak) } : {}),
    };
  } finally {
    await database?.stop();
    for (const server of servers) await stop(server);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

export async function runPublishing({ serverArgs, withPostgres, port, log = console.log }) {
  const o = { serverArgs, port, log };
  const rows = [];
  rows.push(await withPostgres((databaseUrl) => runOn('PostgreSQL', 2, databaseUrl, o)));
  rows.push(await runOn('embedded', 1, undefined, o));
  return rows;
}

export function publishingTargets(rows) {
  const t = [];
  for (const r of rows ?? []) {
    t.push({
      target: `publishing ${r.db}: an article live on ${r.instances === 1 ? 'the instance' : `all ${r.instances} instances`} <= ${PUBLISHING_TARGETS.liveMs} ms after Publish now`,
      figure: `slowest ${r.allLiveMaxMs} ms (median ${r.allLiveP50Ms} ms; on the publishing instance alone, slowest ${r.ownLiveMaxMs} ms, median ${r.ownLiveP50Ms} ms; ${r.articles} articles)`,
      met: r.allLiveMaxMs <= PUBLISHING_TARGETS.liveMs ? 'yes' : 'NO',
    });
  }
  return t;
}

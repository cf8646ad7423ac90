/**
 * The daily retention job: what the privacy notice promises, with the periods it reads
 * (src/content/retention.ts). Each feature declares which of its rows go after which period
 * (`retention` in its personal-data declaration, src/server/kit/personal-data.ts); the run walks
 * the registry's rules in order. Every run is a row of `retention_runs` with its counts, shown in
 * the console.
 *
 * It works in batches of a few dozen rows, one short statement each, with a pause between them: a
 * form submission waits for at most one batch, never for the whole run (on PGlite, which runs one
 * statement at a time, this is what keeps the forms answering).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { retentionCopy } from '~/content/console';
import { RETENTION, type RetentionPeriods } from '~/content/retention';
import type { Db, Queryable } from '../kit/db/client';
import type { PersonalDataRegistry, RetentionScope } from '../kit/personal-data';
import { deleteSubmissions } from '../kit/pipeline-personal-data';
import { retentionRuns } from './tables';
import { retentionRoutes } from '~/contract/people';
import { audit } from '../kit/audit';
import type { ConsoleArea } from '../kit/http/owner-routes';

/** Rows removed, by the names the registry's rules count them under, and `emlFiles`. */
export type RetentionCounts = Record<string, number>;

/**
 * What a run needs: the registry, the suppression list's key, where the .eml files are, and the
 * console's own addresses, which no rule puts on the suppression list (decision 030).
 */
export type RetentionDeps = {
  db: Db;
  registry: PersonalDataRegistry;
  secret: string;
  mailDir: string;
  consoleAddresses: readonly string[];
};

export type RetentionOptions = {
  batchSize?: number;
  pauseMs?: number;
  /** How often an unfinished run says it is alive (`alive_at`). */
  aliveEveryMs?: number;
  periods?: RetentionPeriods;
  /** Aborted: the run ends between two batches (the server is shutting down). */
  signal?: AbortSignal;
  /** Told the run's id once its row exists. */
  onStarted?: (runId: number) => void;
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Rows a retention statement touches at once, and the pause after each batch. On PGlite a
 * transaction holds the one database thread until it ends, so a batch is what a form submitted
 * meanwhile may wait for. On a 100,000-row seed with a month of rows due, a form's p99 during the
 * run was 55 ms at 100 rows a batch and 44 ms at 50 (at 500, on a million rows, 148 ms). The run
 * takes longer; it is a daily job.
 */
export const RETENTION_BATCH = { rows: 50, pauseMs: 10 } as const;

/**
 * An unfinished run says it is alive every 5 seconds; one silent for a minute has died (its
 * process stopped without marking it) and is shown as not finished, not as running.
 */
export const RUN_ALIVE = { everyMs: 5_000, silentAfterMs: 60_000 } as const;

export async function runRetention(
  { db, registry, secret, mailDir, consoleAddresses }: RetentionDeps,
  now = new Date(),
  {
    batchSize = RETENTION_BATCH.rows,
    pauseMs = RETENTION_BATCH.pauseMs,
    aliveEveryMs = RUN_ALIVE.everyMs,
    periods = RETENTION,
    signal,
    onStarted,
  }: RetentionOptions = {},
): Promise<RetentionCounts> {
  // Signs of life are written and read on the database's clock, which every instance shares.
  const [run] = await db
    .insert(retentionRuns)
    .values({ startedAt: now, aliveAt: sql`now()` })
    .returning({ id: retentionRuns.id });
  const runId = run!.id;
  onStarted?.(runId);
  const counts: RetentionCounts = {};
  for (const data of registry) for (const rule of data.retention ?? []) counts[rule.count] = 0;
  counts.emlFiles = 0;
  const files: string[] = [];
  const at = sql`${now.toISOString()}::timestamptz`;
  const ukToday = sql`(${at} at time zone 'Europe/London')::date`;
  let aliveAt = Date.now();
  /** Says the run is alive, at most every `aliveEveryMs`. */
  const alive = async () => {
    if (Date.now() - aliveAt < aliveEveryMs) return;
    aliveAt = Date.now();
    await db
      .update(retentionRuns)
      .set({ aliveAt: sql`now()` })
      .where(sql`${retentionRuns.id} = ${runId}`);
  };
  /** Between two batches: a pause for the forms, and the end of the run if the server is stopping. */
  const between = async () => {
    await pause(pauseMs);
    if (signal?.aborted) throw new RetentionStopped();
    await alive();
  };
  let failure: unknown;
  try {
    const scope: RetentionScope = {
      at,
      ukToday,
      periods,
      batchSize,
      secret,
      consoleAddresses,
      deleteSubmissions,
    };
    // Each rule a batch at a time, until a batch comes back short.
    for (const data of registry) {
      for (const rule of data.retention ?? []) {
        for (;;) {
          const batch =
            'submissions' in rule
              ? await deleteSubmissions(db, rule.submissions(scope)).then((r) => ({
                  count: r.deleted,
                  files: r.files,
                }))
              : await rule.sweep(db, scope);
          files.push(...batch.files);
          counts[rule.count] = (counts[rule.count] ?? 0) + batch.count;
          if (batch.count < batchSize) break;
          await between();
        }
      }
    }
  } catch (error) {
    failure = error;
  }

  // What was deleted before an error still loses its .eml files.
  for (const name of files) {
    try {
      await rm(join(mailDir, name));
      counts.emlFiles += 1;
    } catch {
      // Sent through a relay: there was no file.
    }
    await alive().catch(() => undefined);
  }
  try {
    await db
      .update(retentionRuns)
      .set({ finishedAt: new Date(), counts, interrupted: failure !== undefined })
      .where(sql`${retentionRuns.id} = ${runId}`);
  } catch (error) {
    if (failure === undefined) throw error;
  }
  if (failure !== undefined) throw failure;
  return counts;
}

/** Thrown between two batches when the run is asked to stop. */
export class RetentionStopped extends Error {
  override name = 'RetentionStopped';
}

/**
 * The one retention run at a time, for the daily job and the console's "Run now".
 * `start` answers as soon as the run's row exists (the console does not wait minutes for a run
 * over a million rows); `done` waits for the end. A run under way in another instance (alive:
 * `runUnderWay`) is joined by its id, its end not awaited here (`done` answers null at once).
 * `stop` (server shutdown) ends this process's run between two batches, marked as interrupted,
 * before the database closes.
 */
export type RetentionRunner = {
  /** Starts a run, or joins the one under way here or elsewhere; answers its id and whether this call started it. */
  start(now?: Date): Promise<{ runId: number; started: boolean; done: Promise<RetentionCounts | null> }>;
  /** The id of the run under way in this process, if any. */
  current(): number | null;
  stop(): Promise<void>;
};

export function createRetentionRunner(
  deps: RetentionDeps & { log: FastifyBaseLogger },
  options: Omit<RetentionOptions, 'signal' | 'onStarted'> = {},
): RetentionRunner {
  const controller = new AbortController();
  type Active = { runId: number; done: Promise<RetentionCounts | null> };
  let starting: Promise<Active> | null = null;
  let currentId: number | null = null;

  function begin(now: Date): Promise<Active> {
    return new Promise<Active>((resolve, reject) => {
      let runId: number | undefined;
      const done: Promise<RetentionCounts | null> = runRetention(deps, now, {
        ...options,
        signal: controller.signal,
        onStarted: (id) => {
          runId = id;
          currentId = id;
          resolve({ runId: id, done });
        },
      })
        .then((counts) => {
          deps.log.info({ runId, ...counts }, 'retention run finished');
          return counts;
        })
        .catch((error: unknown) => {
          deps.log.warn({ runId, errorName: (error as Error).name }, 'retention run stopped early');
          if (runId === undefined) reject(error as Error);
          return null;
        })
        .finally(() => {
          starting = null;
          currentId = null;
        });
    });
  }

  return {
    async start(now = new Date()) {
      if (controller.signal.aborted) throw new RetentionStopped('The server is shutting down.');
      if (starting === null) {
        const elsewhere = await runUnderWay(deps.db);
        if (elsewhere !== null && starting === null)
          return { runId: elsewhere, started: false, done: Promise.resolve(null) };
      }
      const started = starting === null;
      starting ??= begin(now);
      const active = await starting;
      return { ...active, started };
    },
    current: () => currentId,
    async stop() {
      controller.abort();
      const active = await starting?.catch(() => null);
      await active?.done;
    },
  };
}

/** A run is under way, in whichever instance: unfinished, and alive within the last minute. */
const isAlive = sql<boolean>`(${retentionRuns.finishedAt} is null and ${retentionRuns.aliveAt} > now() - ${`${RUN_ALIVE.silentAfterMs} milliseconds`}::interval)`;

/** The run under way in any instance (the newest, if several), or null. */
export async function runUnderWay(db: Queryable): Promise<number | null> {
  const [run] = await db
    .select({ id: retentionRuns.id })
    .from(retentionRuns)
    .where(isAlive)
    .orderBy(sql`${retentionRuns.id} desc`)
    .limit(1);
  return run?.id ?? null;
}

/** The last runs, newest first, for the console, and the run under way in any instance. */
export async function retentionHistory(db: Queryable, limit = 10) {
  const rows = await db
    .select({
      id: retentionRuns.id,
      startedAt: retentionRuns.startedAt,
      finishedAt: retentionRuns.finishedAt,
      interrupted: retentionRuns.interrupted,
      counts: retentionRuns.counts,
      alive: isAlive,
    })
    .from(retentionRuns)
    .orderBy(sql`${retentionRuns.id} desc`)
    .limit(limit);
  return {
    runs: rows.map((r) => ({
      id: r.id,
      startedAt: r.startedAt.toISOString(),
      finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
      interrupted: r.interrupted,
      counts: r.counts ?? null,
    })),
    // A run never alive (null alive_at) gives null, not false.
    running: rows.find((r) => r.alive === true)?.id ?? null,
  };
}

/** What the Retention screen says of the rules: one sentence a period, and the name of each count. */
export function retentionRules(registry: PersonalDataRegistry, periods: RetentionPeriods = RETENTION) {
  const sentences = new Set<string>();
  const countLabels: Record<string, string> = { emlFiles: retentionCopy.countLabels.emlFiles! };
  for (const data of registry) {
    for (const rule of data.retention ?? []) sentences.add(rule.describe(periods));
    Object.assign(countLabels, data.countLabels);
  }
  return { periods: [...sentences], countLabels };
}

/** The Retention area: the periods, the last runs, and "Run now". */
export const retentionArea =
  (runner: RetentionRunner, registry: PersonalDataRegistry): ConsoleArea =>
  (routes, { db, clock }) => {
    routes.on(retentionRoutes.view, async () => {
      const history = await retentionHistory(db);
      // This instance's run, or one another instance is running.
      return {
        ...retentionRules(registry),
        runs: history.runs,
        running: runner.current() ?? history.running,
      };
    });
    // Starts a run and answers at once: over a million rows a run takes minutes. The page follows
    // it through the view. Pressed again while it runs, here or in another instance, the run under
    // way is answered (the runner joins it).
    routes.on(retentionRoutes.run, async ({ owner }) => {
      const { runId, started } = await runner.start(clock());
      if (started) await audit(db, owner.email, 'retention.run', String(runId));
      return { ok: true as const, runId, started };
    });
  };

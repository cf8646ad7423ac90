/**
 * The published pages, rendered at publication and served from memory (decision 047). At start,
 * and whenever what is published changes (the console's action on this instance, the counter
 * moved by another instance, a scheduled article's time), the publisher reads what is published,
 * renders its pages in a process of their own (`render-worker.ts`: the app's own server build,
 * React's renderer; kept a minute after a render for the next one, then ended) and hands them
 * to the static site, which serves them as it serves the build's pages. Renders never overlap: a
 * change during one is rendered once it ends. A start whose publication is what the build
 * prerendered renders nothing, and the render runs in a process rather than a thread, so the
 * server keeps none of its memory (decision 049).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { articlePath } from '~/content/articles';
import type { Published } from '~/content/published';
import { safeError } from '../../kit/log-safe';
import { runEvery, type PeriodicJob } from '../../kit/timer';
import { programBeside, workerProcess } from '../../kit/worker-process';
import { PUBLISHED_PREFIXES, type RenderJob, type RenderedFile } from './render-job';
import type { SiteFile, StaticSite } from './static-files';

/**
 * The public address the build was made for (`build-stamp.json`, scripts/build.mjs): the pages'
 * canonical links and structured data carry it, so the feed and the sitemap made at publication
 * name the pages by it too. undefined when the build has no stamp.
 */
export function builtPublicUrl(buildDir: string): string | undefined {
  try {
    const stamp = JSON.parse(readFileSync(join(buildDir, 'build-stamp.json'), 'utf8')) as { publicUrl?: unknown };
    return typeof stamp.publicUrl === 'string' ? stamp.publicUrl : undefined;
  } catch {
    return undefined;
  }
}

/** What is published, as one read gives it. */
export type Publication = {
  /** The publication counter when it was read. */
  version: number;
  published: Published;
  /** An article's old slug -> its current slug. */
  redirects: { from: string; to: string }[];
  /**
   * When its pages go out of date with nothing changed (epoch ms): the soonest end of a
   * masterclass the pages list as upcoming. Undefined: never.
   */
  staleAt?: number;
};

export type PublisherOptions = {
  site: StaticSite;
  buildDir: string;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Reads what is published now. */
  read(): Promise<Publication>;
  /** The publication counter (the cheap question asked every `pollMs`). */
  version(): Promise<number>;
  /** How often another instance's publication is looked for; 0: never (one instance: the embedded database). */
  pollMs: number;
  /**
   * Whether a publication is exactly what the build's pages were prerendered from (decision
   * 049): asked of the first publication only; when it is, nothing is rendered and the build's
   * pages stand, which spares the start a render and its memory.
   */
  asBuilt?(publication: Publication): Promise<boolean>;
  /** Called after each publication is served (the paths the site answers have changed). */
  onServed?: () => void;
  /** How long the render process waits for the next publication (default `RENDER_IDLE_MS`). */
  renderIdleMs?: number;
  /** After a failed render, the pause before the poll tries again (default `RENDER_RETRY_MS`). */
  renderRetryMs?: number;
};

export type Publisher = {
  /** Renders what is published now and serves it; resolves when served (or failed, logged). */
  start(): Promise<void>;
  /** Something changed here: render again (joins a render under way, then one more). */
  republish(): Promise<void>;
  /** The counter of the publication served, or undefined before the first. */
  servedVersion(): number | undefined;
  /** Whether the pages served have gone out of date by `now` (a masterclass listed as upcoming has ended). */
  stale(now: number): boolean;
  stop(): Promise<void>;
};

/** After a failed render, how long the poll waits before it tries the same publication again. */
export const RENDER_RETRY_MS = 30_000;

/** How long the render process is kept after a render, for the next publication to find it warm. */
export const RENDER_IDLE_MS = 60_000;

type Renderer = { render(job: RenderJob): Promise<SiteFile[]>; stop(): Promise<void> };

/**
 * The render process (`render-worker.mjs` beside the server bundle), started by a render and
 * ended `idleMs` after the last one: a burst of publications pays for loading the render build
 * once, and all its memory goes back to the system when it ends (decision 049).
 */
function renderer(idleMs: number): Renderer {
  const work = workerProcess<RenderJob, RenderedFile[]>(programBeside(import.meta.url, 'render-worker'), 'render', idleMs);
  return {
    async render(job) {
      const files = await work.run(job);
      // The channel's structured clone hands back Uint8Arrays: each is viewed as a Buffer where it
      // lies, not copied (a second copy of every page, for a moment, at each publication).
      const view = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return files.map((file) => ({
        rel: file.rel,
        body: view(file.body),
        br: file.br && view(file.br),
        gz: file.gz && view(file.gz),
        scriptHashes: file.scriptHashes,
      }));
    },
    stop: () => work.stop(),
  };
}

export function createPublisher(options: PublisherOptions): Publisher {
  const renderBuild = join(options.buildDir, 'render', 'index.js');
  const hasRenderBuild = existsSync(renderBuild);
  const render = renderer(options.renderIdleMs ?? RENDER_IDLE_MS);
  let served: number | undefined;
  /** When the pages served go out of date with nothing changed (`Publication.staleAt`). */
  let staleAt: number | undefined;
  /** The counter of the last publication read, rendered or not: what the poll compares with. */
  let attempted: number | undefined;
  /** When the last render failed (the poll tries the same publication again after a pause). */
  let failedAt: number | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function publishOnce(): Promise<void> {
    const publication = await options.read();
    attempted = publication.version;
    // Without a render build nothing can be rendered; the read alone still keeps what depends on
    // it current (the e-mails' footers name the business from it).
    if (!hasRenderBuild) return;
    if (served === undefined && (await options.asBuilt?.(publication))) {
      served = publication.version;
      staleAt = publication.staleAt;
      failedAt = undefined;
      options.log.info({ version: publication.version }, 'the build’s pages are what is published: nothing rendered');
      return;
    }
    const files = await render.render({
      renderBuild,
      publicUrl: options.publicUrl,
      published: publication.published,
    });
    if (stopped) return;
    options.site.publish({
      files,
      redirects: publication.redirects.map(({ from, to }) => ({ from: articlePath(from), to: articlePath(to) })),
      prefixes: PUBLISHED_PREFIXES,
    });
    served = publication.version;
    staleAt = publication.staleAt;
    failedAt = undefined;
    options.onServed?.();
    options.log.info(
      { version: publication.version, articles: publication.published.articles.length, files: files.length },
      'published pages served',
    );
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      try {
        await publishOnce();
      } catch (error) {
        // The pages served stay as they were; the next change tries again, or the poll after a pause.
        failedAt = Date.now();
        options.log.error({ err: safeError(error) }, 'the published pages could not be rendered');
      }
    } while (again && !stopped);
  }

  function republish(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = loop().finally(() => (running = undefined));
    return running;
  }

  let poll: PeriodicJob<void> | undefined;

  return {
    async start() {
      if (!hasRenderBuild) {
        options.log.error({ renderBuild }, 'the build has no render build: published pages are not served; run npm run build');
      }
      await republish();
      if (options.pollMs > 0) {
        poll = runEvery(
          async () => {
            try {
              // A newer publication than the last one read (one being rendered is not asked for
              // twice); a failed one again only after a pause, not at every look.
              const version = await options.version();
              const newer = attempted === undefined || version > attempted;
              const due =
                failedAt === undefined
                  ? newer
                  : (newer && attempted !== undefined) ||
                    Date.now() - failedAt >= (options.renderRetryMs ?? RENDER_RETRY_MS);
              if (due) await republish();
            } catch (error) {
              options.log.warn({ err: safeError(error) }, 'the publication counter could not be read');
            }
          },
          { firstAfterMs: options.pollMs, everyMs: options.pollMs },
        );
      }
    },
    republish,
    servedVersion: () => served,
    stale: (now) => staleAt !== undefined && now >= staleAt,
    async stop() {
      stopped = true;
      await poll?.stop();
      await running?.catch(() => {});
      await render.stop();
    },
  };
}

/**
 * The server's services, wired onto the app: the database (migrated at start), the signed links,
 * the rate limit store, the outbox worker, the retention sweep, the retention runner and the
 * console's jobs; then the routes that use them: the form endpoint, the owner's console, the
 * owner's diary and /readyz. On close (graceful shutdown) Fastify first finishes requests in flight; then the
 * background jobs stop, the worker finishes its current send, and the rate limit store and the
 * database close.
 */
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { site } from '~/content/site';
import { formHandlers } from './forms/dispatch-table';
import { formsApi } from './forms/endpoint';
import { createLinks, type Links } from '../kit/http/links';
import { memoryRateLimiter, rateLimitSubject, redisRateLimiter } from './forms/rate-limit';
import { consoleApi, type ConsoleRouteInfo } from '../console/plugin';
import { PERSONAL_DATA } from './personal-data';
import { consoleAreas } from './console-areas';
import { DIARY_SOURCES } from './diary-sources';
import { createDiary } from '../kit/diary';
import { CONSOLE_PATH } from '~/content/routes';
import { registerDiaryFeed } from '../console/diary';
import { startConsoleJobs, type ConsoleJobs } from '../console/jobs';
import { createRetentionRunner, type RetentionRunner } from '../console/retention';
import { ConfigError, consoleUserOf, type Config } from '../kit/config';
import { errorCode } from '../kit/log-safe';
import type { PersonalDataRegistry } from '../kit/personal-data';
import { MIGRATIONS_DIR, openDatabase, type Database } from '../kit/db/client';
import { takeBackup } from '../kit/backup/take';
import { currentRelease } from '../kit/release';
import { startRetentionSweeper, type RetentionSweeper } from '../kit/db/retention';
import {
  createOutboxWorker,
  LEASE_MARGIN_MS,
  type OutboxWorker,
  type OutboxWorkerOptions,
} from '../kit/mail/outbox-worker';
import type { BounceListener } from '../kit/mail/bounce-listener';
import { dkimSigner } from '../kit/mail/dkim';
import { fileTransport, smtpTransport } from '../kit/mail/transport';
import { addressConfirmEmail } from '../kit/mail/address-confirm';
import { startAlerts, type AlertsJob } from '../console/alerts';
import { startBackups, type BackupService } from '../kit/backup/service';
import { systemStatus } from '../kit/backup/status';
import { ownerPushDevices } from '../console/tables';
import { createPushSender } from '../console/push';
import { registerCounting, type Counting } from '~/features/analytics/analytics.server';
import { startCountingChores } from '~/features/analytics/analytics-jobs.server';
import { startWeeklyReport } from '~/features/analytics/weekly-report.server';
import { startIssueChores } from '~/features/newsletter/issue-sending.server';
import { publishedMasterclasses } from '~/features/events/events-public.server';
import { unsubscribeSubscriber } from '~/features/newsletter/newsletter.server';
import { issueDeps } from '~/features/newsletter/issues-console.server';
import { FUNNEL_ENDS } from './funnel-ends';
import { currentSession } from '../console/sessions';
import type { PeriodicJob } from '../kit/timer';
import { isConsolePath } from './site/static-files';
import { builtPublicUrl, createPublisher, type Publisher } from './site/publisher';
import { calendarExpansion, type CalendarLimits } from './calendar-expansion';
import { imageProcess } from './images';
import { articlesDigest, builtArticlesDigest, readRepositoryArticles } from '../kit/repository-articles';
import { runEvery } from '../kit/timer';
import { safeError } from '../kit/log-safe';
import {
  articleRedirectList,
  importArticles,
  publishDueArticles,
  publishedArticles,
  publishedArticleTexts,
} from '~/features/publishing/articles.server';
import { publicationVersion } from '../kit/publication';
import { archivedIssueTexts } from '~/features/newsletter/issue-archive.server';
import { renderArticleMarkdown } from '~/features/publishing/article-markdown.server';
import { businessPostalAddress, publishedBusiness } from '~/features/business/business.server';
import { registerFounderPhoto } from '~/features/business/photo-route.server';
import { registerArticleCovers } from '~/features/publishing/article-covers.server';
import type { MailBusiness } from '../kit/mail/layout';
import {
  startCalendarFeed,
  type CalendarFeedDeps,
  type CalendarFeedJob,
} from '~/features/booking/calendar-feed.server';

/** How often scheduled articles are looked for (decision 047). */
const PUBLISHING_CHORES_MS = 5_000;

export type ServicesOptions = {
  /** The registry of personal data (default: every feature's, src/server/root/personal-data.ts). */
  personalData?: PersonalDataRegistry;
  /** Test knobs for the worker (short retries, fast polling). */
  outbox?: Partial<
    Pick<
      OutboxWorkerOptions,
      'pollIntervalMs' | 'leaseMs' | 'retryDelayMs' | 'maxAttempts' | 'batchSize' | 'clock'
    >
  >;
  /** Test knobs for the visit counts (the clock). */
  counting?: { now?: () => Date };
  /** Test knobs for the alerts job (how often it runs). */
  alerts?: { everyMs?: number };
  /** Test knobs for the backups schedule (how soon and how often it looks). */
  backups?: { everyMs?: number; firstAfterMs?: number };
  /** Test knobs for reading the owner's calendar (a shorter timeout, a smaller size limit). */
  calendarFeed?: CalendarFeedDeps['limits'];
  /** Test knobs: the calendar expansion's limits (a shorter time, fewer occurrences). */
  calendarExpansion?: Partial<CalendarLimits>;
};

declare module 'fastify' {
  interface FastifyInstance {
    services: {
      database: Database;
      outbox: OutboxWorker;
      /** The bulk lane's worker: newsletter issues (decision 046). */
      bulkOutbox: OutboxWorker;
      /** The newsletter's chores (tests run a round at once). */
      issueChores: PeriodicJob<void>;
      links: Links;
      retention: RetentionSweeper;
      consoleJobs: ConsoleJobs;
      retentionRuns: RetentionRunner;
      calendarFeed: CalendarFeedJob;
      /** The alerts on the console people's devices (tests run a round at once). */
      alerts: AlertsJob;
      /** Backups, drills and their alerts (decision 057). */
      backups: BackupService;
      /** The bounce listener (decision 045), when BOUNCE_DOMAIN is set. */
      bounces?: BounceListener;
      /** The visit counts (decision 042): the salt, the form starts, the chores. */
      counting: Counting & { chores: PeriodicJob<string[]> };
      /** Every route of the console, with the role it needs (filled as Fastify registers them). */
      consoleRoutes: ConsoleRouteInfo[];
      /** The published pages (decision 047): rendered at start and at each publication. */
      publisher: Publisher;
      /** Scheduled articles made live on time (tests run a round at once). */
      publishingChores: PeriodicJob<void>;
    };
  }
}

export async function registerServices(app: FastifyInstance, config: Config, options: ServicesOptions = {}) {
  const personalData = options.personalData ?? PERSONAL_DATA;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    log: (message, fields) => app.log.info(fields ?? {}, message),
    warn: (message, fields) => app.log.warn(fields ?? {}, message),
    // An upgrade's migrations run only after a verified backup (decision 057).
    backupBeforeMigrating: async (connection) =>
      (
        await takeBackup({
          connection,
          driver: config.databaseUrl ? 'postgres' : 'embedded',
          backupsDir: config.backup.dir,
          dataDir: config.dataDir,
          reason: 'before upgrade',
          release: currentRelease(),
          migrationsFolder: MIGRATIONS_DIR,
          recipient: config.backup.recipient,
        })
      ).dir,
  });
  const links = createLinks(config.publicUrl, config.appSecret);
  // What relays send back to the VERP senders (decision 045), started before anything else that
  // would need stopping: a port it cannot take stops the start with a sentence, the database closed.
  let bounces: BounceListener | undefined;
  if (config.bounce) {
    try {
      const { startBounceListener } = await import('../kit/mail/bounce-listener');
      bounces = await startBounceListener({
        ...config.bounce,
        db: database.db,
        secret: config.appSecret,
        consoleAddresses: config.ownerEmails,
        log: app.log,
        // The newsletter's List-Unsubscribe mailto (decision 046): the reader's id, hyphens put back.
        onUnsubscribe: async (hex) => {
          const id = hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
          await unsubscribeSubscriber(database.db, id);
        },
      });
    } catch (error) {
      await database.close();
      const code = errorCode(error) ?? 'ERROR';
      throw new ConfigError(
        `The bounce listener cannot listen on ${config.bounce.host}:${config.bounce.port} (${code}): ${
          code === 'EACCES'
            ? 'a port below 1024 needs the server to be allowed to bind it (CAP_NET_BIND_SERVICE), or forward 25 to a higher BOUNCE_SMTP_PORT'
            : code === 'EADDRINUSE'
              ? 'another process (another instance on this machine?) holds that port; give each instance its own BOUNCE_SMTP_PORT'
              : 'check BOUNCE_SMTP_HOST and BOUNCE_SMTP_PORT'
        }.`,
      );
    }
  }
  const limiter = config.redisUrl ? await redisRateLimiter(config.redisUrl, app.log) : memoryRateLimiter();
  // Every e-mail signed with DKIM when DKIM_SELECTOR is set (decision 044); the record to publish is public.
  const dkim = config.dkim ? dkimSigner(config.dkim) : undefined;
  if (dkim) app.log.info({ name: dkim.recordName, value: dkim.record }, 'DKIM on: publish this TXT record');
  // Two workers over one outbox (decision 046): the `mail` lane (every e-mail of forms and the
  // owner's actions) and the `bulk` lane (newsletter issues), each with its own connections to the
  // relay, so a lead's e-mail never waits behind a campaign. The bulk lane keeps the newsletter's rate.
  const mailBusiness: { current: MailBusiness | null } = { current: null };
  const outboxOptions = {
    db: database.db,
    log: app.log,
    mailFrom: config.mailFrom,
    secret: config.appSecret,
    brand: site.brand,
    ownerEmail: config.ownerEmail,
    consoleAddresses: config.ownerEmails,
    confirmAddress: (heldId: number, to: string) => addressConfirmEmail(links, heldId, to),
    visitorHourlyCap: config.visitorMailHourlyCap,
    dkim,
    bounceDomain: config.bounce?.domain,
    // The business's name and address (Business details) for every e-mail's footer: set by each
    // read of what is published, at start and at every publication, on every instance.
    business: mailBusiness,
  } satisfies Omit<OutboxWorkerOptions, 'transport'>;
  // A send gives up before its row's lease ends (OUTBOX_LEASE_SECONDS).
  const mailTransport = () =>
    config.smtpUrl
      ? smtpTransport(config.smtpUrl, { deadlineMs: config.outboxLeaseMs - LEASE_MARGIN_MS })
      : fileTransport(join(config.dataDir, 'mail'), { refusedDomain: config.mailFileRefusedDomain });
  const outbox = createOutboxWorker({ ...outboxOptions, transport: mailTransport(), ...options.outbox });
  const bulkOutbox = createOutboxWorker({
    ...outboxOptions,
    transport: mailTransport(),
    lane: 'bulk',
    ratePerSecond: config.newsletter.ratePerSecond,
    ...options.outbox,
  });
  const retention = startRetentionSweeper(database, app.log);
  const wakeOutbox = () => outbox.wake();
  // The console's actions may queue either lane's rows (a test of an issue, the issue itself).
  const wakeBothLanes = () => {
    outbox.wake();
    bulkOutbox.wake();
  };
  // The newsletter's issues (decision 046): scheduled issues started on time, finished ones marked.
  const issueChores = startIssueChores({
    ...issueDeps({ config, db: database.db, links, wakeOutbox: wakeBothLanes }, businessPostalAddress),
    log: app.log,
  });
  const retentionRuns = createRetentionRunner({
    db: database.db,
    registry: personalData,
    secret: config.appSecret,
    mailDir: join(config.dataDir, 'mail'),
    consoleAddresses: config.ownerEmails,
    log: app.log,
  });
  const consoleJobs = startConsoleJobs({
    db: database.db,
    config,
    links,
    log: app.log,
    wakeOutbox,
    retentionRuns,
  });
  // Alerts on the console people's devices (decision 041): sent by the job, tested from the console.
  const pushSender = createPushSender(config, app.log);
  const alerts = startAlerts({
    db: database.db,
    sender: pushSender,
    log: app.log,
    config,
    ...options.alerts,
  });
  // Backups (decision 057): daily, kept, copied off the machine, drilled weekly; warned of.
  const startedAt = new Date();
  const backups = startBackups(
    {
      database,
      config,
      log: app.log,
      wakeOutbox,
      startedAt,
      consoleUrl: (path) => links.absolute(`${CONSOLE_PATH}${path}`),
      pushOwner: async ({ title, url, tag }) => {
        const owners = new Set(
          config.consoleUsers.filter((user) => user.role === 'owner').map((user) => user.email.toLowerCase()),
        );
        const devices = (await database.db.select().from(ownerPushDevices)).filter((d) =>
          owners.has(d.email.toLowerCase()),
        );
        await pushSender.send(database.db, devices, {
          kind: 'system',
          title,
          body: 'Open the System page.',
          url,
          tag,
        });
      },
    },
    options.backups,
  );
  // The owner's calendar is read in a process of its own, with limits (decision 037, addendum).
  const calendarReader = calendarExpansion(options.calendarExpansion);
  const calendarFeed = startCalendarFeed({
    db: database.db,
    config,
    expand: calendarReader.expand,
    availabilityUrl: links.absolute(`${CONSOLE_PATH}/availability`),
    log: app.log,
    wakeOutbox,
    limits: options.calendarFeed,
  });
  // What the owner publishes (decision 047): the repository's articles imported once, then the
  // published pages rendered now and at each publication, here or on another instance.
  const sitePages = () =>
    new Set(app.site.paths().filter((path) => !path.includes('.') && !isConsolePath(path)));
  let pages = sitePages();
  // The owner's uploaded images are made in a process of their own (decision 050).
  const images = imageProcess();
  const publisher = createPublisher({
    site: app.site,
    buildDir: config.buildDir,
    // The feed and the sitemap name the pages by the address their canonical links were built with.
    publicUrl: builtPublicUrl(config.buildDir) ?? config.publicUrl,
    log: app.log,
    read: async () => {
      // The counter first: a change made while the rest is read is rendered again at the next look.
      const version = await publicationVersion(database.db);
      const [articles, redirects, business, masterclasses, issues] = await Promise.all([
        publishedArticles(database.db),
        articleRedirectList(database.db),
        publishedBusiness(database.db),
        publishedMasterclasses(database.db),
        archivedIssueTexts(database.db),
      ]);
      mailBusiness.current = business && { name: business.name, address: business.address };
      // An issue's Markdown is the owner's, as an article's: rendered by the same safe renderer.
      const newsletter = issues.map(({ body, ...issue }) => ({
        ...issue,
        html: renderArticleMarkdown(body).html,
      }));
      // The lists of masterclasses tell upcoming from past when rendered: again once one ends.
      const now = Date.now();
      const ends = masterclasses.map((m) => Date.parse(m.endsAt)).filter((end) => end > now);
      const staleAt = ends.length > 0 ? Math.min(...ends) : undefined;
      return { version, published: { articles, business, masterclasses, newsletter }, redirects, staleAt };
    },
    version: () => publicationVersion(database.db),
    // The repository's articles and nothing else: the build's pages are these (decision 049).
    asBuilt: async ({ published, redirects }) => {
      if (
        published.business ||
        (published.masterclasses?.length ?? 0) > 0 ||
        (published.newsletter?.length ?? 0) > 0 ||
        redirects.length > 0
      )
        return false;
      // A cover is the console's alone (decision 050): the build's pages show none.
      if (published.articles.some((article) => article.cover)) return false;
      const built = builtArticlesDigest(config.buildDir);
      return built !== undefined && articlesDigest(await publishedArticleTexts(database.db)) === built;
    },
    pollMs: config.publishPollMs,
    // A new article's page is counted as a page of the site.
    onServed: () => (pages = sitePages()),
  });
  try {
    await importArticles(database.db, await readRepositoryArticles());
  } catch (error) {
    app.log.error({ err: safeError(error) }, 'the repository articles could not be imported');
  }
  try {
    await publishDueArticles(database.db);
  } catch (error) {
    app.log.error({ err: safeError(error) }, 'scheduled articles could not be published');
  }
  await publisher.start();
  // Scheduled articles go live on time, on whichever instance looks first; each instance renders
  // its pages again once a masterclass they list as upcoming has ended.
  const publishingChores = runEvery(
    async () => {
      try {
        if ((await publishDueArticles(database.db)) > 0 || publisher.stale(Date.now()))
          await publisher.republish();
      } catch (error) {
        app.log.error({ err: safeError(error) }, 'scheduled articles could not be published');
      }
    },
    { firstAfterMs: PUBLISHING_CHORES_MS, everyMs: PUBLISHING_CHORES_MS },
  );
  // The visit counts (decision 042): the beacon's intake, the form starts, the daily chores.
  const counting = registerCounting(app, {
    config,
    database,
    // Only looks: the owner's own browsing of the site does not keep a console session alive.
    isConsoleBrowser: async (request) =>
      (await currentSession(database.db, config, request, new Date(), false)) !== undefined,
    isPage: (path) => pages.has(path),
    isConsole: isConsolePath,
    addressKey: rateLimitSubject,
    now: options.counting?.now,
  });
  const countingChores = startCountingChores({
    salts: counting.salts,
    db: database.db,
    log: app.log,
    todayMaxAgeMs: config.visitsTodayMaxAgeMs,
    now: options.counting?.now,
  });
  // The weekly report of the counts (decision 042): Monday from 07:00 UK time, once a week.
  const weeklyReport = startWeeklyReport({
    db: database.db,
    ownerEmail: config.ownerEmail,
    funnelEnds: FUNNEL_ENDS,
    visitsUrl: links.absolute(`${CONSOLE_PATH}/visits`),
    log: app.log,
    wakeOutbox,
    clock: options.counting?.now,
  });
  const consoleRoutes: ConsoleRouteInfo[] = [];
  // The owner's diary: the calendar subscription, and what a session's time must not clash with.
  const diary = createDiary(DIARY_SOURCES, {
    publicUrl: config.publicUrl,
    organizer: { name: site.brand, email: config.mailFrom },
    consoleUrl: (path) => links.absolute(`${CONSOLE_PATH}/${path}`),
  });
  /** A client's rate-limit key: a keyed hash of its address or IPv6 /64. */
  const clientKey = (request: FastifyRequest) => links.hashAddress(rateLimitSubject(request.ip));
  app.decorate('services', {
    database,
    outbox,
    bulkOutbox,
    issueChores,
    bounces,
    links,
    retention,
    consoleJobs,
    retentionRuns,
    calendarFeed,
    alerts,
    backups,
    counting: { ...counting, chores: countingChores },
    consoleRoutes,
    publisher,
    publishingChores,
  });

  app.addHook('onClose', async () => {
    // Together: the chores under way may be waiting on a retention run, which the runner's stop
    // ends between two batches.
    await Promise.all([
      consoleJobs.stop(),
      retention.stop(),
      retentionRuns.stop(),
      calendarFeed.stop().then(() => calendarReader.stop()),
      alerts.stop(),
      backups.stop(),
      countingChores.stop(),
      weeklyReport.stop(),
      issueChores.stop(),
      publishingChores.stop(),
      publisher.stop(),
      images.stop(),
      bounces?.close(),
    ]);
    await Promise.all([outbox.stop(), bulkOutbox.stop()]);
    await limiter.close();
    await database.close();
  });

  // The founder's photo, as the business's details name it (decision 048).
  registerFounderPhoto(app, database.db);
  // The articles' cover images (decision 050); a draft's only to whoever may read drafts: the
  // owner (the articles' routes are the owner's; a helper reads no draft).
  registerArticleCovers(app, database.db, async (request) => {
    const session = await currentSession(database.db, config, request, new Date(), false);
    return !!session && consoleUserOf(config, session.email)?.role === 'owner';
  });

  // For load balancers and uptime monitors (README, "Going live"): the database answers and holds
  // exactly this release's migrations. /healthz says only that the process answers.
  app.get('/readyz', async (_request, reply) => {
    let migrations;
    try {
      if (app.closing()) throw new Error('closing');
      migrations = await database.migrations();
    } catch {
      return reply.code(503).send({ error: 'Not ready: the database does not answer.' });
    }
    if (migrations.state !== 'current') {
      return reply.code(503).send({
        error:
          migrations.state === 'newer'
            ? 'Not ready: the database was migrated by a newer release.'
            : 'Not ready: the database has migrations of this release still to run.',
      });
    }
    return { status: 'ready', database: database.driver };
  });

  await app.register(formsApi, {
    config,
    database,
    links,
    limiter,
    handlers: formHandlers,
    wakeOutbox,
    diary,
    formStarted: counting.formStarted,
  });
  // The owner's console (src/server/console): its API under /api/owner/.
  await app.register(consoleApi, {
    config,
    db: database.db,
    areas: consoleAreas({
      backups,
      systemStatus: (running, now) => systemStatus(database, config, startedAt, running, now),
      personalData,
      retentionRuns,
      handlers: formHandlers,
      calendarFeed,
      pushSender,
      onPublished: () => void publisher.republish(),
      images,
    }),
    links,
    limiter,
    clientKey,
    wakeOutbox: wakeBothLanes,
    giveWay: app.giveWay,
    diary,
    routeList: consoleRoutes,
  });
  // The owner's diary, a calendar subscription: its public feed (its console page is an area).
  registerDiaryFeed(app, {
    db: database.db,
    links,
    limiter,
    clientKey,
    diary,
  });
  // A restored copy looked at before it goes live (decision 057) sends no e-mail: its rows wait.
  if (!config.sandbox) {
    outbox.start();
    bulkOutbox.start();
  }
}

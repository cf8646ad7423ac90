/**
 * Builds the Fastify instance: the prerendered site from memory, the health checks and the
 * API. `main.ts` listens with it; tests call `buildApp()` and `app.inject()`.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from '../kit/config';
import { createGiveWay, type GiveWay } from '../kit/http/give-way';
import { apiErrorHandler } from '../kit/http/request-checks';
import { safeError } from '../kit/log-safe';
import { attachStaticFastPath } from './site/fast-static';
import { registerServices, type ServicesOptions } from './services';
import { baseSecurityHeaders, contentSecurityPolicy } from './site/security-headers';
import { loadStaticSite, type StaticSite } from './site/static-files';

export type AppOptions = {
  config: Config;
  /** Pino options or false; tests pass a stream to read what was logged. */
  logger?: FastifyServerOptions['logger'];
  /** Options of the services (tests shorten the outbox's retry delays). */
  services?: ServicesOptions;
};

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    site: StaticSite;
    /** True from the start of a graceful close (`preClose`). */
    closing(): boolean;
    /** The requests in flight, for downloads to give way to (src/server/kit/http/give-way.ts). */
    giveWay: GiveWay;
  }
}

/**
 * Request logs carry the method, the path without its query (tokens live there) and the request
 * id: no address, no body. An error is logged by its kind, code and stack frames, never its
 * message (a database error's holds the SQL's parameters: src/server/kit/log-safe.ts).
 */
export const requestSerializers = {
  err: safeError,
  req(req: { method: string; url: string; id: string }) {
    return { id: req.id, method: req.method, path: req.url.split('?')[0] };
  },
  res(res: { statusCode: number }) {
    return { statusCode: res.statusCode };
  },
};

/** Node's limits, and the static fast path's on the connections it holds (decision 012). */
const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export async function buildApp({ config, logger, services }: AppOptions): Promise<FastifyInstance> {
  const site = loadStaticSite({
    clientDir: join(config.buildDir, 'client'),
    scriptHashes: JSON.parse(readFileSync(join(config.buildDir, 'csp-hashes.json'), 'utf8')) as Record<
      string,
      string[]
    >,
    https: config.https,
  });

  // What differs for pages: a GET or HEAD outside /api/ that matches nothing is the site's
  // HTML 404; anything else is a JSON 404.
  const notFound = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    if ((request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/')) {
      reply.hijack();
      site.serveNotFound(request.raw, reply.raw);
      return;
    }
    void reply.code(404).send({ error: 'Not found.' });
  };

  // Every request is counted from its arrival to its response's close, so that downloads wait
  // while visitors are being answered (decision 034).
  const giveWay = createGiveWay({ enabled: config.downloadsGiveWay });

  const app = Fastify<Server>({
    logger: logger ?? { level: config.logLevel, serializers: requestSerializers },
    // The router's own refusals, before any route runs: a path segment longer than a parameter
    // may be (no id is that long) names nothing, and a path that cannot be decoded cannot be read.
    frameworkErrors: (error, request, reply) => {
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return notFound(request, reply as FastifyReply);
      void (reply as FastifyReply).code(400).send({ error: 'The address could not be read.' });
    },
    // Only the listed proxies' X-Forwarded-For is believed (TRUST_PROXY, config.ts).
    trustProxy: config.trustProxy,
    bodyLimit: 32 * 1024,
    connectionTimeout: REQUEST_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    return503OnClosing: true,
    // Static files are answered before Fastify routes a request: on a new connection by the
    // fast path (decision 012) unless STATIC_FAST_PATH=false, else with one Map lookup and
    // headers made at start.
    serverFactory: (handler) => {
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        giveWay.arrived(req, res);
        if (!site.serve(req, res)) handler(req, res);
      });
      // Fastify leaves its timeout options to a server it did not make: set them here.
      server.setTimeout(REQUEST_TIMEOUT_MS);
      server.requestTimeout = REQUEST_TIMEOUT_MS;
      server.headersTimeout = REQUEST_TIMEOUT_MS;
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
      if (config.staticFastPath) {
        attachStaticFastPath(server, site, {
          keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
          headersTimeoutMs: REQUEST_TIMEOUT_MS,
        });
      }
      return server;
    },
  });
  app.decorate('config', config);
  app.decorate('site', site);
  app.decorate('giveWay', giveWay);

  // Requests that reach Fastify without the fast path (inject() in tests) are served the same way.
  app.addHook('onRequest', async (request, reply) => {
    if (site.serve(request.raw, reply.raw)) reply.hijack();
  });

  const apiHeaders = [
    ...baseSecurityHeaders(config.https),
    ['Content-Security-Policy', contentSecurityPolicy({ https: config.https })],
    ['Cache-Control', 'no-store'],
  ] as const;
  // Once closing, a request still in flight is answered with `Connection: close`, so its
  // keep-alive connection ends with it instead of holding the close for the keep-alive timeout.
  let closing = false;
  app.decorate('closing', () => closing);
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of apiHeaders) if (!reply.hasHeader(name)) reply.header(name, value);
    if (closing) reply.header('connection', 'close');
    return payload;
  });

  // One error handler for every route (the form endpoint's plugin sets the same one): refusals
  // as they say, the framework's 4xx as a clear sentence, 5xx with no internals.
  app.setErrorHandler(apiErrorHandler);

  app.get('/healthz', async () => ({ status: 'ok' }));
  // The database, the outbox worker and the jobs; the form endpoint, the console and /readyz.
  await registerServices(app, config, services);

  app.setNotFoundHandler(notFound);

  return app;
}

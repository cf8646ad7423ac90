/**
 * The owner's console routes, typed at the edge. A route is declared once in the contract
 * (src/contract/route.ts: method, path, zod schemas of its input, its answer's type); `on` registers
 * it on the session scope with a handler that receives the parsed input and the signed-in owner,
 * and must answer what the contract says (a wrong answer fails typecheck). No handler reads
 * `request.body` or `request.query` itself. Input that does not parse is refused: a path
 * parameter that cannot name a record with 404 and the route's sentence, a query or body with 400
 * and the schema's message (and, for a body, the message of each field that failed, unless the
 * route says its body is no form).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OWNER_API } from '~/contract/console';
import { mayUse, ROLE_REFUSED, roleOf, type ConsoleRole } from '~/contract/roles';
import type { AnswerOf, BodyOf, ParamsOf, QueryOf, Route } from '~/contract/route';
import type { z } from '~/lib/zod';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Links } from './links';
import { RunningDownloads, type FileAnswer } from './downloads';
import type { GiveWay } from './give-way';
import { Refusal, send } from './request-checks';
import type { Diary } from '../diary';

/** The signed-in person of the request's session: an owner or a helper (decision 032). */
export type OwnerIdentity = { id: string; email: string; role: ConsoleRole; name: string };

declare module 'fastify' {
  interface FastifyRequest {
    owner?: OwnerIdentity;
  }
  interface FastifyContextConfig {
    /** A console route's role, as declared (the owner's when it names none); none on an open route. */
    consoleRole?: ConsoleRole;
  }
}

/** What a handler receives: the parsed input, the owner, and the request for its log. */
export type OwnerInput<R extends Route> = {
  params: ParamsOf<R>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  owner: OwnerIdentity;
  request: FastifyRequest;
  reply: FastifyReply;
};

export type { FileAnswer };

type Answer<R extends Route> = R extends { download: true } ? FileAnswer : AnswerOf<R>;

export type RouteOptions = {
  /** Runs before the input is parsed: a rate limit that counts every request, a malformed one too. */
  before?(request: FastifyRequest): Promise<void>;
};

export type OwnerRoutes = {
  on<R extends Route>(
    route: R,
    handler: (input: OwnerInput<R>) => Promise<Answer<R>>,
    options?: RouteOptions,
  ): void;
};

/** The routes of signing in, which need no session: the same, without an owner. */
export type OpenRoutes = {
  on<R extends Route>(
    route: R,
    handler: (input: Omit<OwnerInput<R>, 'owner'>) => Promise<Answer<R>>,
    options?: RouteOptions,
  ): void;
};

/** The console's services every area may use. */
export type ConsoleServices = {
  config: Config;
  db: Db;
  links: Links;
  /** The time; tests move it. */
  clock(): Date;
  wakeOutbox(): void;
  /** What downloads give way to: csvStream's third argument (give-way.ts). */
  giveWay: GiveWay;
  /** The owner's diary: a session's new time must not clash with it (../diary.ts). */
  diary: Diary;
};

/** One area of the console (inbox, bookings, people...): registers its routes on the session scope. */
export type ConsoleArea = (routes: OwnerRoutes, services: ConsoleServices) => void;

function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'The request is not valid.';
}

/** The message of the first problem of each top-level field. */
function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && !(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, refuse: (error: z.ZodError) => Refusal) {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) throw refuse(result.error);
  return result.data;
}

/**
 * Registers typed routes on `app` (a scope whose hooks have checked the session). Each route
 * needs its declared role (the owner's when it names none): a helper asking for an owner's route
 * is refused with 403 and ROLE_REFUSED before anything else runs.
 */
export const ownerRoutes = (app: FastifyInstance, giveWay: GiveWay): OwnerRoutes =>
  typedRoutes(app, true, giveWay);

/** Registers typed routes that need no session (signing in) on `app`. */
export const openRoutes = (app: FastifyInstance, giveWay: GiveWay): OpenRoutes =>
  typedRoutes(app, false, giveWay);

function typedRoutes(app: FastifyInstance, needsSession: boolean, giveWay: GiveWay): OwnerRoutes {
  const downloads = new RunningDownloads(giveWay);
  return {
    on(route, handler, options) {
      app.route({
        method: route.method,
        url: `${OWNER_API}${route.path}`,
        config: needsSession ? { consoleRole: roleOf(route) } : {},
        ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
        handler: async (request, reply) => {
          if (needsSession && !mayUse(request.owner?.role ?? 'helper', route)) {
            throw new Refusal(403, { error: ROLE_REFUSED });
          }
          await options?.before?.(request);
          const params = parse(route.params, request.params, (error) =>
            route.notFound
              ? new Refusal(404, { error: route.notFound })
              : new Refusal(400, { error: firstMessage(error) }),
          );
          const query = parse(
            route.query,
            request.query ?? {},
            (error) => new Refusal(400, { error: firstMessage(error) }),
          );
          const body = parse(route.body, request.body ?? {}, (error) => {
            const fields = fieldErrors(error);
            return new Refusal(400, {
              error: route.invalid ?? firstMessage(error),
              ...(route.fieldErrors !== false && Object.keys(fields).length ? { fieldErrors: fields } : {}),
            });
          });
          const answer = () =>
            handler({
              params,
              query,
              body,
              owner: request.owner,
              request,
              reply,
            } as OwnerInput<typeof route>);
          // A download is one at a time per owner, and cut if it fails (downloads.ts).
          if (route.download) {
            return downloads.send(
              request.owner?.email ?? '',
              request,
              reply,
              answer as () => Promise<FileAnswer>,
            );
          }
          return send(reply, route.status ?? 200, (await answer()) as object);
        },
      });
    },
  };
}

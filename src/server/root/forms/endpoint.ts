/**
 * The form endpoint, `POST /api/send-contact-email` (named after the spec's function). The
 * route is its list of steps: same origin -> JSON only -> size limit (Fastify's body limit) ->
 * form type -> rate limit -> fill-time token -> the form's schema -> spam traps -> store
 * (`./submissions.ts`: one statement, or one transaction with the feature's rows) -> 200 {id}.
 * A step that refuses throws a `Refusal`, answered by the API's error handler. Every answer is
 * JSON; errors are `{error}` with a message a person can read, plus `fieldErrors` for invalid
 * fields.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TOO_MANY_ATTEMPTS } from '~/content/forms';
import type { z } from 'zod';
import { HONEYPOT_FIELD } from '~/lib/spam-traps';
import type { Config } from '../../kit/config';
import type { Database } from '../../kit/db/client';
import type { FormHandler, ServerContext } from '../../kit/http/form-handler';
import {
  FORM_TOKEN_REFUSED,
  formStartTokens,
  formTokenRoute,
  type FormStart,
  type FormStartTokens,
} from './fill-time';
import { apiErrorHandler, jsonOnly, Refusal, sameOriginOnly, send } from '../../kit/http/request-checks';
import type { Links } from '../../kit/http/links';
import { rateLimitSubject, type RateLimiter } from './rate-limit';
import { createSubmissions, type SubmissionRow } from './submissions';
import { addressConfirmRoute } from './address-confirm';
import type { Diary } from '../../kit/diary';
import { leadStateOnArrival } from '~/contract/lead-states';

export type FormsApiOptions = {
  config: Config;
  database: Database;
  links: Links;
  limiter: RateLimiter;
  handlers: Readonly<Record<string, FormHandler>>;
  wakeOutbox(): void;
  /** The owner's diary, for the handlers' own routes (a booking confirmed by the owner's link). */
  diary: Diary;
  /** A visitor started a form (its first fill-time token): counted for the form's funnel. */
  formStarted?(request: FastifyRequest, formType: string): Promise<void>;
};

type Body = Record<string, unknown>;

export const IDEMPOTENCY_MISMATCH_MESSAGE =
  'This Idempotency-Key was already used for a different request. Send a new booking with a new key.';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

export async function formsApi(app: FastifyInstance, options: FormsApiOptions) {
  const { config, database, links, limiter, handlers, wakeOutbox, diary } = options;
  const submissions = createSubmissions(database);
  const starts = formStartTokens(links.tokens);

  app.setErrorHandler(apiErrorHandler);
  formTokenRoute(app, config, starts, new Set(Object.keys(handlers)), options.formStarted);

  app.post(
    '/api/send-contact-email',
    { onRequest: [sameOriginOnly(config), jsonOnly] },
    async (request, reply) => {
      const { formType, fields, handler } = formOf(request.body, handlers);
      if (!config.benchDisableRateLimit) await checkRateLimit(limiter, links, request, formType, handler);
      checkCharacters(fields);
      const start = config.benchDisableFillTime ? undefined : await checkFillTime(starts, formType, fields);
      const data = validate(handler, fields);
      const row = submissionRow(request, links, formType, data);

      const trap = spamReason(fields, start, config);
      if (trap) {
        // Stored for the record, never mailed, answered like a success so the bot learns nothing.
        await submissions.storeSpam(row, trap);
        request.log.info({ submissionId: row.id, formType, spam: trap }, 'submission flagged as spam');
        return send(reply, 200, { id: row.id, ...handler.spamResponse?.(row.id) });
      }

      const stored = await submissions.store({
        row,
        consent: handler.consent?.(data, fields),
        handler,
        context: {
          data,
          submissionId: row.id,
          receivedAt: new Date(),
          config,
          links,
          diary,
          clientKey: links.hashAddress(rateLimitSubject(request.ip)),
        },
        idempotencyKey: handler.idempotent ? idempotencyKeyOf(request) : undefined,
      });
      if (!stored.ok) throw new Refusal(422, { error: IDEMPOTENCY_MISMATCH_MESSAGE });
      if (stored.emails.length > 0) wakeOutbox();
      request.log.info(
        { submissionId: stored.answer.id, formType, emails: stored.emails.length },
        'submission accepted',
      );
      return send(reply, 200, stored.answer);
    },
  );

  const ctx: ServerContext = { config, db: database.db, links, log: app.log, wakeOutbox, diary };
  for (const handler of Object.values(handlers)) handler.routes?.(app, ctx);
  // The link that lets a suppressed address be written to again (decision 030).
  addressConfirmRoute(app, ctx);
}

// --- The steps --------------------------------------------------------------------------------

/** The body as an object of fields, and the handler its `formType` names. */
function formOf(body: unknown, handlers: Readonly<Record<string, FormHandler>>) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Refusal(400, { error: 'Please send the form fields as a JSON object.' });
  }
  const fields = body as Body;
  const formType = typeof fields.formType === 'string' ? fields.formType : '';
  const handler = Object.hasOwn(handlers, formType) ? handlers[formType] : undefined;
  if (!handler) {
    throw new Refusal(400, {
      error: 'This form is not recognised.',
      fieldErrors: { formType: 'Unknown form type.' },
    });
  }
  return { formType, fields, handler };
}

/** Counts the request against its form's limit; the client is its subject (an IPv6 /64), hashed. */
async function checkRateLimit(
  limiter: RateLimiter,
  links: Links,
  request: FastifyRequest,
  formType: string,
  handler: FormHandler,
) {
  const { allowed, retryAfterMs } = await limiter.hit(
    `${formType}:${links.hashAddress(rateLimitSubject(request.ip))}`,
    handler.rateLimit.max,
    handler.rateLimit.windowMs,
  );
  if (!allowed) {
    const retryAfter = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
    throw new Refusal(429, { error: TOO_MANY_ATTEMPTS }, { 'retry-after': retryAfter });
  }
}

// A NUL, or half of a UTF-16 surrogate pair: JSON allows both, Postgres text and jsonb refuse them.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const LONE_SURROGATE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Refuses a field holding a string Postgres cannot store, naming the first one. */
function checkCharacters(body: Body) {
  const bad = (value: unknown, depth: number): boolean => {
    if (typeof value === 'string') return LONE_SURROGATE.test(value);
    if (depth > 20 || typeof value !== 'object' || value === null) return false;
    return Object.entries(value).some(([k, v]) => LONE_SURROGATE.test(k) || bad(v, depth + 1));
  };
  const malformed = Object.keys(body).find((key) => LONE_SURROGATE.test(key) || bad(body[key], 0));
  if (malformed !== undefined) {
    throw new Refusal(400, {
      error: 'Please check the highlighted fields.',
      fieldErrors: { [malformed]: 'Please remove line breaks and unusual characters.' },
    });
  }
}

/** The fill-time token: made by this server for this form, or the request is refused. */
async function checkFillTime(starts: FormStartTokens, formType: string, fields: Body): Promise<FormStart> {
  const start = await starts.check(formType, fields);
  if (!start.ok) throw new Refusal(400, { error: FORM_TOKEN_REFUSED });
  return start;
}

/** The form's schema: the cleaned fields, or 400 with the first message of each invalid field. */
function validate(handler: FormHandler, fields: Body): unknown {
  const parsed = handler.schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw new Refusal(400, {
    error: 'Please check the highlighted fields.',
    fieldErrors: fieldErrors(parsed.error),
  });
}

function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : 'form';
    out[key] ??= issue.message;
  }
  return out;
}

/** The submission row: a new id, the fields, the user agent and the client's hashed address. */
function submissionRow(
  request: FastifyRequest,
  links: Links,
  formType: string,
  data: unknown,
): SubmissionRow {
  const ua = request.headers['user-agent'];
  return {
    id: randomUUID(),
    formType,
    fields: data,
    userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null,
    ipHash: links.hashAddress(request.ip),
    leadState: leadStateOnArrival(formType),
  };
}

function spamReason(body: Body, start: FormStart | undefined, config: Config): string | undefined {
  const trap = body[HONEYPOT_FIELD];
  if (trap !== undefined && trap !== null && trap !== '') return 'honeypot';
  if (start?.ok && Date.now() - start.startedAt < config.minFillTimeMs) return 'too-fast';
  return undefined;
}

/** The request's Idempotency-Key, if it sent one. */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
    throw new Refusal(400, { error: 'The Idempotency-Key header must be 8-100 letters, digits, - or _.' });
  }
  return key;
}

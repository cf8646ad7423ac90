/**
 * The form endpoint, `POST /api/send-contact-email` (named after the spec's function):
 * same-origin check -> JSON only -> size limit (Fastify's body limit) -> form type -> rate
 * limit -> the form's schema -> spam traps -> one transaction (submission, consent, the
 * feature's rows, its outbox e-mails) -> 200 {id}. Every answer is JSON; errors are `{error}`
 * with a message a person can read, plus `fieldErrors` for invalid fields.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { TOO_MANY_ATTEMPTS } from '~/content/forms';
import type { z } from 'zod';
import { HONEYPOT_FIELD } from '~/lib/form-guard';
import type { Config } from '../../kit/config';
import type { Database } from '../../kit/db/client';
import { consentRecords, submissions } from '../../kit/db/schema';
import { enqueueEmails, type OutgoingEmail } from '../../kit/mail/outbox';
import type { FormHandler, ServerContext } from '../../kit/http/form-handler';
import { FORM_TOKEN_REFUSED, formStartTokens, formTokenRoute, type FormStart } from './fill-time';
import { apiErrorHandler, jsonOnly, sameOriginOnly, send } from '../../kit/http/request-checks';
import type { Links } from '../../kit/http/links';
import { rateLimitSubject, type RateLimiter } from './rate-limit';
import { createSubmissionWriter, insertSubmissions } from './submission-writer';

export type FormsApiOptions = {
  config: Config;
  database: Database;
  links: Links;
  limiter: RateLimiter;
  handlers: Readonly<Record<string, FormHandler>>;
  wakeOutbox(): void;
};

type Body = Record<string, unknown>;

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? String(issue.path[0]) : 'form';
    out[key] ??= issue.message;
  }
  return out;
}

// A NUL, or half of a UTF-16 surrogate pair: JSON allows both, Postgres text and jsonb refuse them.
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const LONE_SURROGATE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first top-level field holding a string Postgres cannot store, if any. */
function malformedField(body: Body): string | undefined {
  const bad = (value: unknown, depth: number): boolean => {
    if (typeof value === 'string') return LONE_SURROGATE.test(value);
    if (depth > 20 || typeof value !== 'object' || value === null) return false;
    return Object.entries(value).some(([k, v]) => LONE_SURROGATE.test(k) || bad(v, depth + 1));
  };
  return Object.keys(body).find((key) => LONE_SURROGATE.test(key) || bad(body[key], 0));
}

function spamReason(body: Body, start: FormStart | undefined, config: Config): string | undefined {
  const trap = body[HONEYPOT_FIELD];
  if (trap !== undefined && trap !== null && trap !== '') return 'honeypot';
  if (start?.ok && Date.now() - start.startedAt < config.minFillTimeMs) return 'too-fast';
  return undefined;
}

export const IDEMPOTENCY_MISMATCH_MESSAGE =
  'This Idempotency-Key was already used for a different request. Send a new booking with a new key.';

/** What an Idempotency-Key is bound to: the validated fields, spam-trap fields aside. */
function requestHash(data: unknown): string {
  return createHash('sha256').update(JSON.stringify(data)).digest('base64url');
}

export async function formsApi(app: FastifyInstance, options: FormsApiOptions) {
  const { config, database, links, limiter, handlers, wakeOutbox } = options;
  const { db } = database;
  // PGlite runs one statement at a time; a Postgres pool takes a few at once.
  const writer = createSubmissionWriter(database, { maxInFlight: database.driver === 'pglite' ? 1 : 2 });

  app.setErrorHandler(apiErrorHandler);
  const originCheck = sameOriginOnly(config);
  const starts = formStartTokens(links.tokens);
  formTokenRoute(app, config, starts, new Set(Object.keys(handlers)));

  app.post('/api/send-contact-email', { onRequest: [originCheck, jsonOnly] }, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return send(reply, 400, { error: 'Please send the form fields as a JSON object.' });
    }
    const fields = body as Body;
    const formType = typeof fields.formType === 'string' ? fields.formType : '';
    const handler = Object.hasOwn(handlers, formType) ? handlers[formType] : undefined;
    if (!handler) {
      return send(reply, 400, {
        error: 'This form is not recognised.',
        fieldErrors: { formType: 'Unknown form type.' },
      });
    }

    // The stored hash is of the client's own address; the limit counts its subject (an IPv6 /64).
    const ipHash = links.hashAddress(request.ip);
    if (!config.benchDisableRateLimit) {
      const { allowed, retryAfterMs } = await limiter.hit(
        `${formType}:${links.hashAddress(rateLimitSubject(request.ip))}`,
        handler.rateLimit.max,
        handler.rateLimit.windowMs,
      );
      if (!allowed) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
        return send(reply, 429, { error: TOO_MANY_ATTEMPTS });
      }
    }

    const malformed = malformedField(fields);
    if (malformed !== undefined) {
      return send(reply, 400, {
        error: 'Please check the highlighted fields.',
        fieldErrors: { [malformed]: 'Please remove line breaks and unusual characters.' },
      });
    }
    // The fill-time token: made by this server for this form, or the request is refused.
    let start: FormStart | undefined;
    if (!config.benchDisableFillTime) {
      start = await starts.check(formType, fields);
      if (!start.ok) return send(reply, 400, { error: FORM_TOKEN_REFUSED });
    }
    const parsed = handler.schema.safeParse(fields);
    if (!parsed.success) {
      return send(reply, 400, {
        error: 'Please check the highlighted fields.',
        fieldErrors: fieldErrors(parsed.error),
      });
    }
    const data = parsed.data;
    const submissionId = randomUUID();
    const ua = request.headers['user-agent'];
    const row = {
      id: submissionId,
      formType,
      fields: data,
      userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null,
      ipHash,
    };

    const reason = spamReason(fields, start, config);
    if (reason) {
      // Stored for the record, never mailed, answered like a success so the bot learns nothing.
      await db.insert(submissions).values({ ...row, spam: true, spamReason: reason });
      request.log.info({ submissionId, formType, spam: reason }, 'submission flagged as spam');
      return send(reply, 200, { id: submissionId, ...handler.spamResponse?.(submissionId) });
    }

    let idempotencyKey: string | undefined;
    if (handler.idempotent) {
      const key = request.headers['idempotency-key'];
      if (key !== undefined) {
        if (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key)) {
          return send(reply, 400, {
            error: 'The Idempotency-Key header must be 8-100 letters, digits, - or _.',
          });
        }
        idempotencyKey = key;
      }
    }

    const hash = idempotencyKey ? requestHash(data) : undefined;
    const emails: OutgoingEmail[] = [];
    const consent = handler.consent?.(data, fields);
    const base = {
      data,
      submissionId,
      receivedAt: new Date(),
      config,
      links,
      sendEmail: (...more: OutgoingEmail[]) => emails.push(...more),
    };
    let answer: Record<string, unknown> | 'mismatch';
    if (handler.compose && !idempotencyKey) {
      // Nothing of the feature's own to write: one statement, atomic by itself, one round trip.
      const extra = (await handler.compose(base)) ?? undefined;
      await writer.write({ row, consent, emails });
      answer = { id: submissionId, ...extra };
    } else {
      answer = await db.transaction(async (tx) => {
        if (idempotencyKey) {
          const inserted = await tx
            .insert(submissions)
            .values({ ...row, idempotencyKey, requestHash: hash })
            .onConflictDoNothing()
            .returning({ id: submissions.id });
          if (inserted.length === 0) {
            const [first] = await tx
              .select({
                id: submissions.id,
                response: submissions.response,
                requestHash: submissions.requestHash,
              })
              .from(submissions)
              .where(and(eq(submissions.formType, formType), eq(submissions.idempotencyKey, idempotencyKey)));
            emails.length = 0;
            // The same key with another body is a client bug or a probe: never another request's answer.
            if (first?.requestHash && first.requestHash !== hash) return 'mismatch' as const;
            return { id: first?.id, ...(first?.response as object | null) };
          }
          if (consent)
            await tx
              .insert(consentRecords)
              .values({ submissionId, consentId: consent.id, wording: consent.text });
        } else {
          await insertSubmissions(tx, [{ row, consent, emails: [] }]);
        }
        const outcome = handler.accept ? handler.accept({ ...base, tx }) : handler.compose?.(base);
        const extra = (await outcome) ?? undefined;
        await enqueueEmails(tx, submissionId, emails);
        if (idempotencyKey && extra) {
          await tx.update(submissions).set({ response: extra }).where(eq(submissions.id, submissionId));
        }
        return { id: submissionId, ...extra };
      });
    }

    if (answer === 'mismatch') return send(reply, 422, { error: IDEMPOTENCY_MISMATCH_MESSAGE });
    if (emails.length > 0) wakeOutbox();
    request.log.info({ submissionId: answer.id, formType, emails: emails.length }, 'submission accepted');
    return send(reply, 200, answer);
  });

  const ctx: ServerContext = { config, db, links, log: app.log, wakeOutbox };
  for (const handler of Object.values(handlers)) handler.routes?.(app, ctx);
}

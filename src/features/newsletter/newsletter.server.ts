/**
 * The newsletter on the server. A sign-up tells the owner (the spec's `sendConfirmation false`
 * notification) and sends the subscriber a confirmation link: the address counts as subscribed
 * only once it is confirmed (double opt-in). Every e-mail to a subscriber carries an
 * unsubscribe link and the RFC 8058 one-click headers.
 *
 * The links open pages of the site that change nothing until the visitor presses the button
 * (link scanners fetch URLs, they do not press buttons); the page then calls the API below.
 * The one-click POST from a mail provider needs no page.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { site } from '~/content/site';
import type { Db } from '~/server/kit/db/client';
import { defineFormHandler, type ServerContext } from '~/server/kit/http/form-handler';
import { jsonOnly, sameOriginOnly } from '~/server/kit/http/request-checks';
import type { Links } from '~/server/kit/http/links';
import { MAX_TOKEN_LENGTH } from '~/server/kit/http/signed-tokens';
import { greeting } from '~/server/kit/mail/greeting';
import { dropWaitingFor } from '~/server/kit/mail/mailing';
import type { EmailContent } from '~/server/kit/mail/layout';
import { submissionNotice } from '~/server/kit/mail/templates';
import {
  NEWSLETTER_CONFIRM_API,
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_UNSUBSCRIBE_API,
  NEWSLETTER_UNSUBSCRIBE_PATH,
} from './newsletter-fields';
import { NewsletterSchema, NewsletterTokenSchema, type NewsletterValues } from './newsletter-schema';
import { newsletterIssues, newsletterSubscribers } from './tables.server';

const CONFIRM = 'newsletter-confirm';
const UNSUBSCRIBE = 'newsletter-unsubscribe';
/** How long a confirmation link works (once). */
export const CONFIRM_LINK_DAYS = 7;

/**
 * A subscriber's unsubscribe links: the page that asks first (the visible link) and the RFC 8058
 * one-click address (the List-Unsubscribe header). No expiry: they must keep working, and they can
 * only unsubscribe.
 */
export async function unsubscribeLinks(links: Links, subscriberId: string) {
  const token = await links.tokens.sign(UNSUBSCRIBE, subscriberId);
  return {
    unsubscribe: links.absolute(`${NEWSLETTER_UNSUBSCRIBE_PATH}?token=${token}`),
    oneClick: links.absolute(`${NEWSLETTER_UNSUBSCRIBE_API}?token=${token}`),
  };
}

export async function newsletterLinks(links: Links, subscriberId: string) {
  const [confirmToken, unsubscribe] = await Promise.all([
    links.tokens.sign(CONFIRM, subscriberId, {
      expiresInSeconds: CONFIRM_LINK_DAYS * 24 * 3600,
      singleUse: true,
    }),
    unsubscribeLinks(links, subscriberId),
  ]);
  return { confirm: links.absolute(`${NEWSLETTER_CONFIRM_PATH}?token=${confirmToken}`), ...unsubscribe };
}

export function confirmationEmail(
  data: NewsletterValues,
  urls: Awaited<ReturnType<typeof newsletterLinks>>,
): EmailContent {
  return {
    preheader: 'One click to confirm your subscription to The Smart Money Newsletter.',
    heading: 'Please confirm your subscription',
    blocks: [
      { type: 'paragraph', text: greeting(data.firstName) },
      {
        type: 'paragraph',
        text: `Thank you for signing up to The Smart Money Newsletter from ${site.brand}: one e-mail a month on building wealth and thinking clearly about Bitcoin as a UK professional.`,
      },
      {
        type: 'paragraph',
        text: 'Please confirm that this is your address. Until you do, we will not send you the newsletter.',
      },
      { type: 'button', label: 'Confirm my subscription', url: urls.confirm },
      {
        type: 'small',
        text: `The link works once, for ${CONFIRM_LINK_DAYS} days.`,
      },
      {
        type: 'small',
        text: 'If you did not sign up, ignore this e-mail and you will not hear from us again.',
      },
    ],
    footer: [{ type: 'small', text: `Unsubscribe at any time: ${urls.unsubscribe}` }],
  };
}

export function ownerSubscriberEmail(data: NewsletterValues, submissionId: string): EmailContent {
  return submissionNotice({
    preheader: `${data.firstName} ${data.lastName} signed up to the newsletter.`,
    heading: 'New newsletter subscriber',
    fields: [
      ['First name', data.firstName],
      ['Last name', data.lastName],
      ['Email', data.email],
    ],
    more: [
      {
        type: 'paragraph',
        text: 'They have been sent a confirmation link and count as subscribed once they follow it.',
      },
    ],
    submissionId,
  });
}

/**
 * Unsubscribes a reader: by the one-click POST, the page's button, or a message to the
 * List-Unsubscribe mailto (decision 046). Answers whether the reader exists; unsubscribing twice
 * changes nothing the second time.
 */
export async function unsubscribeSubscriber(db: Db, subscriberId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ email: newsletterSubscribers.email, status: newsletterSubscribers.status })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.id, subscriberId))
      .for('update');
    if (!row) return false;
    if (row.status === 'unsubscribed') return true;
    await tx
      .update(newsletterSubscribers)
      .set({ status: 'unsubscribed', unsubscribedAt: sql`now()` })
      .where(eq(newsletterSubscribers.id, subscriberId));
    // An issue going out now does not reach them after all (unless it is with the relay already).
    await dropWaitingFor(tx, row.email);
    // The last issue the reader was sent counts them (a number only: decision 046).
    await tx.execute(sql`
      update ${newsletterIssues} set unsubscribed = unsubscribed + 1
      where id = (select mailing_id from outbox
        where mailing_id is not null and status = 'sent' and lower(to_address) = ${row.email}
        order by sent_at desc limit 1)`);
    return true;
  });
}

function newsletterRoutes(app: FastifyInstance, { config, db, links, log }: ServerContext) {
  const originCheck = sameOriginOnly(config);

  const unsubscribe = (subscriberId: string) => unsubscribeSubscriber(db, subscriberId);

  const confirmRefusals = {
    invalid: 'This confirmation link is not valid. Please sign up again.',
    expired: `This confirmation link has expired (links work for ${CONFIRM_LINK_DAYS} days). Please sign up again.`,
    used: 'This confirmation link has already been used.',
  } as const;

  app.post(NEWSLETTER_CONFIRM_API, { onRequest: [originCheck, jsonOnly] }, async (request, reply) => {
    const parsed = NewsletterTokenSchema.safeParse(request.body);
    const token = parsed.success ? await links.tokens.verify(CONFIRM, parsed.data.token) : undefined;
    if (!token?.ok) {
      return reply.code(400).send({ error: confirmRefusals[token?.reason ?? 'invalid'] });
    }
    const outcome = await db.transaction(async (tx) => {
      // Single use: a replayed link changes nothing, whatever happened since.
      if (!(await links.tokens.consume(tx, CONFIRM, token))) return 'used' as const;
      const rows = await tx
        .update(newsletterSubscribers)
        .set({ status: 'confirmed', confirmedAt: sql`now()` })
        // An old confirmation link never re-subscribes someone who has since unsubscribed.
        .where(
          and(eq(newsletterSubscribers.id, token.subject), ne(newsletterSubscribers.status, 'unsubscribed')),
        )
        .returning({ id: newsletterSubscribers.id });
      return rows.length > 0 ? ('confirmed' as const) : ('invalid' as const);
    });
    if (outcome !== 'confirmed') return reply.code(400).send({ error: confirmRefusals[outcome] });
    log.info({ subscriberId: token.subject }, 'newsletter subscription confirmed');
    return { status: 'confirmed' };
  });

  // The unsubscribe endpoint takes the page's JSON and a mail provider's one-click POST
  // (form-encoded `List-Unsubscribe=One-Click`, the token in the URL), so it has its own parsers.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, { oneClick: body }),
    );
    scope.post(NEWSLETTER_UNSUBSCRIBE_API, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const token = typeof query.token === 'string' ? query.token : body.token;
      const verified = await links.tokens.verify(UNSUBSCRIBE, token);
      // Links sent before the current tokens keep working: an unsubscribe link is for good.
      const id = verified.ok ? verified.subject : links.tokens.verifyLegacy(UNSUBSCRIBE, token);
      if (!id || !(await unsubscribe(id))) {
        return reply.code(400).send({ error: 'This unsubscribe link is not valid.' });
      }
      log.info({ subscriberId: id }, 'newsletter unsubscribed');
      return { status: 'unsubscribed' };
    });
  });

  // A client that opens the List-Unsubscribe URL with GET lands on the page, which asks first.
  app.get(NEWSLETTER_UNSUBSCRIBE_API, async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    const suffix =
      typeof token === 'string' && token.length <= MAX_TOKEN_LENGTH
        ? `?token=${encodeURIComponent(token)}`
        : '';
    return reply.redirect(`${NEWSLETTER_UNSUBSCRIBE_PATH}${suffix}`, 303);
  });
}

export const newsletterHandler = defineFormHandler({
  schema: NewsletterSchema,
  rateLimit: { max: 5, windowMs: 5 * 60_000 },
  async accept({ tx, data, submissionId, config, links, sendEmail }) {
    const [subscriber] = await tx
      .insert(newsletterSubscribers)
      .values({
        id: randomUUID(),
        email: data.email.toLowerCase(),
        firstName: data.firstName,
        lastName: data.lastName,
      })
      .onConflictDoUpdate({
        target: newsletterSubscribers.email,
        set: {
          // Anyone can type any address: a sign-up never renames a confirmed subscriber.
          firstName: sql`case when ${newsletterSubscribers.status} = 'confirmed' then ${newsletterSubscribers.firstName} else excluded.first_name end`,
          lastName: sql`case when ${newsletterSubscribers.status} = 'confirmed' then ${newsletterSubscribers.lastName} else excluded.last_name end`,
          // Signing up again after unsubscribing starts a new opt-in; a confirmed address stays confirmed.
          status: sql`case when ${newsletterSubscribers.status} = 'confirmed' then 'confirmed' else 'pending' end`,
        },
      })
      .returning({ id: newsletterSubscribers.id, status: newsletterSubscribers.status });
    sendEmail({
      kind: 'newsletter.owner',
      to: config.ownerEmail,
      replyTo: data.email,
      subject: `[${site.brand}] New newsletter subscriber: ${data.firstName} ${data.lastName}`,
      content: ownerSubscriberEmail(data, submissionId),
    });
    if (subscriber && subscriber.status !== 'confirmed') {
      const urls = await newsletterLinks(links, subscriber.id);
      sendEmail({
        kind: 'newsletter.confirm',
        audience: 'visitor',
        to: data.email,
        subject: 'Please confirm your subscription to The Smart Money Newsletter',
        content: confirmationEmail(data, urls),
        headers: {
          'List-Unsubscribe': `<${urls.oneClick}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    }
    return undefined;
  },
  routes: newsletterRoutes,
});

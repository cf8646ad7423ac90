/**
 * Bounces and complaints that arrive after a send (decision 045). A visitor e-mail leaves with a
 * VERP envelope sender naming its outbox row (./verp.ts); the listener (./bounce-listener.ts)
 * accepts mail only for these addresses and hands each message here:
 *  - `reportVerdict`: what the message is. A delivery status notification (RFC 3464) saying a
 *    recipient `failed` with a 5.x.x status is a hard bounce; a feedback report (RFC 5965) of
 *    abuse, fraud, virus or other is a complaint; anything else (a delay, an auto-reply, a
 *    vacation notice, a person's answer) is neither, whatever its headers say;
 *  - `recordReport`: puts the row's own recipient (never an address written in the report) on the
 *    suppression list, `bounced` or `complained`, unless it is one of the console's addresses; a
 *    bounced row is recorded `failed` with the status as its error (`EBOUNCE 5.1.1`).
 */
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger as Logger } from 'fastify';
import PostalMime, { type Email } from 'postal-mime';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/rows';
import { outbox, suppressions } from '../db/schema';
import { isConsoleAddress, suppressionHash } from './outbox';

// --- What a returned message is ----------------------------------------------------------------

/** What a message sent back to a VERP address says about its row's recipient. */
export type ReportVerdict =
  /** A recipient failed for good: the enhanced status, e.g. 5.1.1. */
  | { kind: 'bounce'; status: string }
  /** The recipient complained: the feedback type, e.g. abuse. */
  | { kind: 'complaint'; feedbackType: string }
  /** Nothing to act on, and why (for the log). */
  | { kind: 'ignored'; why: IgnoredWhy };

export type IgnoredWhy =
  | 'not-a-report'
  | 'unparsable'
  | 'no-status-part'
  | 'not-a-hard-bounce'
  | 'no-feedback-part'
  | 'not-a-complaint';

/** Feedback types (RFC 5965, 6650) that are a complaint; `not-spam` and `auth-failure` are not. */
const COMPLAINT_TYPES = new Set(['abuse', 'fraud', 'virus', 'other']);
/** Delivery status parts: RFC 3464, and RFC 6533's UTF-8 form. */
const STATUS_PARTS = new Set(['message/delivery-status', 'message/global-delivery-status']);

/** The media type and the report-type of a Content-Type header value (lower-cased). */
function reportTypeOf(contentType: string | undefined): { mediaType: string; reportType?: string } {
  const value = contentType ?? '';
  const mediaType = value.split(';')[0]!.trim().toLowerCase();
  const param = /;\s*report-type\s*=\s*(?:"([^"]*)"|([^\s;]+))/i.exec(value);
  const reportType = (param?.[1] ?? param?.[2])?.trim().toLowerCase();
  return reportType ? { mediaType, reportType } : { mediaType };
}

/**
 * The field groups of a delivery status or feedback report part: blocks of `Name: value` lines
 * separated by blank lines, continuation lines unfolded; names lower-cased.
 */
export function fieldGroups(text: string): Map<string, string>[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.replace(/\n[ \t]+/g, ' ').split('\n')) {
        const colon = line.indexOf(':');
        if (colon < 1) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
      }
      return fields;
    })
    .filter((fields) => fields.size > 0);
}

/**
 * The first per-recipient group of a delivery status that failed with a permanent status, as
 * that status; undefined when none did (delayed, relayed, delivered, expanded, or a 4.x.x).
 * Per-message fields never carry `Action`, so every group with one is a recipient's.
 */
export function hardBounceStatus(groups: readonly Map<string, string>[]): string | undefined {
  for (const group of groups) {
    const action = group.get('action')?.split(/[\s(]/)[0]?.toLowerCase();
    const status = /^5\.\d{1,3}\.\d{1,3}\b/.exec(group.get('status') ?? '')?.[0];
    if (action === 'failed' && status) return status;
  }
  return undefined;
}

/** Raw messages are parsed with their report parts kept as text and nested messages left alone. */
const PARSE_OPTIONS = { attachmentEncoding: 'utf8', maxRfc822NestingDepth: 0 } as const;

/**
 * What a message sent back to a VERP address is. Only its structure counts: a `multipart/report`
 * of the right report-type with its machine-readable part. `Auto-Submitted` says nothing either way
 * (relays put `auto-replied` on their bounces too), and neither does the subject.
 */
export async function reportVerdict(raw: Buffer | string): Promise<ReportVerdict> {
  let email: Email;
  try {
    email = await PostalMime.parse(raw, PARSE_OPTIONS);
  } catch {
    return { kind: 'ignored', why: 'unparsable' };
  }
  const { mediaType, reportType } = reportTypeOf(email.headers.find((h) => h.key === 'content-type')?.value);
  if (mediaType !== 'multipart/report') return { kind: 'ignored', why: 'not-a-report' };
  const partText = (types: ReadonlySet<string>) => {
    const part = email.attachments.find((a) => types.has(a.mimeType.toLowerCase()));
    if (!part) return undefined;
    return typeof part.content === 'string' ? part.content : new TextDecoder().decode(part.content);
  };
  if (reportType === 'delivery-status' || reportType === 'global-delivery-status') {
    const text = partText(STATUS_PARTS);
    if (text === undefined) return { kind: 'ignored', why: 'no-status-part' };
    const status = hardBounceStatus(fieldGroups(text));
    return status ? { kind: 'bounce', status } : { kind: 'ignored', why: 'not-a-hard-bounce' };
  }
  if (reportType === 'feedback-report') {
    const text = partText(new Set(['message/feedback-report']));
    if (text === undefined) return { kind: 'ignored', why: 'no-feedback-part' };
    const feedbackType = fieldGroups(text)[0]?.get('feedback-type')?.toLowerCase();
    return feedbackType && COMPLAINT_TYPES.has(feedbackType)
      ? { kind: 'complaint', feedbackType }
      : { kind: 'ignored', why: 'not-a-complaint' };
  }
  return { kind: 'ignored', why: 'not-a-report' };
}

// --- What is done about it ---------------------------------------------------------------------

/** What `recordReport` did, for the log and the tests. */
export type ReportOutcome = 'suppressed' | 'console-address' | 'unknown-row' | 'ignored';

export type ReportContext = {
  db: Queryable;
  secret: string;
  /** The console's own addresses (`config.ownerEmails`): never suppressed (decision 030). */
  consoleAddresses: readonly string[];
  log: Logger;
};

/**
 * Acts on a verdict about outbox row `rowId` (named by a verified VERP address): a bounce or a
 * complaint puts the row's recipient on the suppression list (an existing entry, `erased` say,
 * stays as it is), and a bounce records the row `failed` with `EBOUNCE <status>` (its `sent_at`
 * kept: it did leave). Each statement may run again harmlessly: a relay that is told to try
 * again later (the database was away) repeats none of it twice. Logs ids and codes only.
 */
export async function recordReport(
  ctx: ReportContext,
  rowId: number,
  verdict: ReportVerdict,
): Promise<ReportOutcome> {
  const { db, secret, consoleAddresses, log } = ctx;
  if (verdict.kind === 'ignored') {
    log.info({ outboxId: rowId, why: verdict.why }, 'returned e-mail is no bounce nor complaint: ignored');
    return 'ignored';
  }
  const [row] = rowsOf<{ to_address: string }>(
    await db.execute(sql`select to_address from ${outbox} where id = ${rowId}`),
  );
  const detail =
    verdict.kind === 'bounce' ? { status: verdict.status } : { feedbackType: verdict.feedbackType };
  if (!row) {
    // Erased since, or never ours to know: nothing is left to suppress.
    log.info(
      { outboxId: rowId, report: verdict.kind, ...detail },
      'bounce report for an e-mail no longer kept',
    );
    return 'unknown-row';
  }
  const consoleAddress = isConsoleAddress(consoleAddresses, row.to_address);
  if (!consoleAddress) {
    await db
      .insert(suppressions)
      .values({
        hash: suppressionHash(secret, row.to_address),
        reason: verdict.kind === 'bounce' ? 'bounced' : 'complained',
      })
      .onConflictDoNothing({ target: suppressions.hash });
  }
  if (verdict.kind === 'bounce') {
    await db.execute(
      sql`update ${outbox} set status = 'failed', last_error = ${`EBOUNCE ${verdict.status}`}
          where id = ${rowId} and status = 'sent'`,
    );
  }
  const outcome: ReportOutcome = consoleAddress ? 'console-address' : 'suppressed';
  log.info(
    { outboxId: rowId, report: verdict.kind, ...detail, outcome },
    consoleAddress
      ? 'bounce report for a console address: not suppressed'
      : verdict.kind === 'bounce'
        ? 'hard bounce: address suppressed'
        : 'complaint: address suppressed',
  );
  return outcome;
}

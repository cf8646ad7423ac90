/**
 * What the signed links do. `inspectLink` says what a link is for (the page shows it before
 * anything happens); `performLink` does it in one transaction: the link's id is stored (a
 * second use finds it and is refused), the booking row is locked and moved to its new status,
 * the change is recorded with its time, and the e-mails it causes are queued.
 */
import { eq } from 'drizzle-orm';
import { bookingActionCopy, sessionTypeLabels, type SessionTime } from '~/content/booking';
import { UUID_PATTERN } from '~/lib/patterns';
import type { ServerContext } from '~/server/kit/http/form-handler';
import type { Links } from '~/server/kit/http/links';
import type { Queryable } from '~/server/kit/db/client';
import { formatChoice, startTimeOption, startTimesFor } from './booking-dates';
import type { BookingStatus, LinkActAnswer, LinkView } from './booking-link-api';
import { verifyLink, type LinkPayload } from './booking-links.server';
import { bookingLinkUses } from './tables.server';
import { readAvailabilitySettings } from './availability.server';
import {
  checkState,
  chosenWindow,
  LinkRefusal,
  loadBooking,
  slotOf,
  slotWords,
  type Loaded,
  type OwnerInput,
  type PerformContext,
} from './booking-action-checks.server';
import { applyAction } from './booking-decisions.server';

const refusals = bookingActionCopy.refusals;

async function verified(links: Links, token: unknown, now: Date): Promise<LinkPayload> {
  const result = await verifyLink(links.tokens, token, now);
  if (result.ok && UUID_PATTERN.test(result.payload.b)) return result.payload;
  if (!result.ok && result.reason === 'expired') throw new LinkRefusal('expired', 410, refusals.expired);
  throw new LinkRefusal('invalid', 403, refusals.invalid);
}

function choiceWords(row: Loaded['row']): string[] {
  const out = [formatChoice(row.firstChoiceDate, row.firstChoiceTime as SessionTime)];
  if (row.secondChoiceDate && row.secondChoiceTime) {
    out.push(formatChoice(row.secondChoiceDate, row.secondChoiceTime as SessionTime));
  }
  return out;
}

async function alreadyUsed(q: Queryable, tokenId: string): Promise<boolean> {
  const rows = await q
    .select({ id: bookingLinkUses.tokenId })
    .from(bookingLinkUses)
    .where(eq(bookingLinkUses.tokenId, tokenId));
  return rows.length > 0;
}

export async function inspectLink(
  ctx: Pick<ServerContext, 'db' | 'links'>,
  token: unknown,
  now: Date,
): Promise<LinkView> {
  const payload = await verified(ctx.links, token, now);
  if (await alreadyUsed(ctx.db, payload.j)) throw new LinkRefusal('used', 409, refusals.used);
  const { row, details } = checkState(payload.a, await loadBooking(ctx.db, payload.b, false), now);
  const window = chosenWindow(payload.a, row);
  const slot = slotOf(row);
  return {
    action: payload.a,
    reference: row.reference,
    status: row.status,
    sessionType: sessionTypeLabels[details.sessionType],
    choices: choiceWords(row),
    applicantName:
      payload.a === 'cancel' || payload.a === 'reschedule'
        ? undefined
        : `${details.firstName} ${details.lastName}`,
    choice: window
      ? {
          label: formatChoice(window.date, window.time),
          startTimes: startTimesFor(window.time).map(startTimeOption),
        }
      : undefined,
    session: slot ? slotWords(slot) : undefined,
    // A Zoom session's confirm link asks for its meeting link, the settings' default filled in.
    meetingLink:
      window && payload.a !== 'confirm-move' && row.sessionType === 'zoom'
        ? (await readAvailabilitySettings(ctx.db)).meetingLink
        : undefined,
    move: row.moveDate && row.moveTime ? formatChoice(row.moveDate, row.moveTime as SessionTime) : undefined,
  };
}

export async function performLink(
  ctx: PerformContext,
  token: unknown,
  input: OwnerInput,
  now: Date,
): Promise<{ bookingId: string; status: BookingStatus; answer: LinkActAnswer }> {
  const payload = await verified(ctx.links, token, now);

  return ctx.db.transaction(async (tx) => {
    const locked = await loadBooking(tx, payload.b, true);
    if (!locked) throw new LinkRefusal('invalid', 403, refusals.invalid);
    const used = await tx
      .insert(bookingLinkUses)
      .values({ tokenId: payload.j, bookingId: payload.b, action: payload.a, usedAt: now })
      .onConflictDoNothing()
      .returning({ id: bookingLinkUses.tokenId });
    if (used.length === 0) throw new LinkRefusal('used', 409, refusals.used);
    const loaded = checkState(payload.a, locked, now);
    const actor = payload.a === 'cancel' || payload.a === 'reschedule' ? 'applicant' : 'owner';
    const { answer } = await applyAction(tx, ctx, loaded, payload.a, input, now, actor, 'link');
    return { bookingId: loaded.row.id, status: answer.status, answer };
  });
}

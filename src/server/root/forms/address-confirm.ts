/**
 * `POST /api/email/confirm {token}`: the button of the page an address confirmation e-mail links
 * to (src/server/kit/mail/address-confirm.ts, decision 030). The token names the visitor e-mail
 * that was held back because its address is on the suppression list. Pressed, in one transaction:
 * the token is used up, the address's keyed hash comes off the list, the e-mails to the address
 * held back in the link's lifetime are due again, and the lifting is audited (actor `visitor`: the
 * address's own link). Only the address's mailbox receives the link, so following it proves the
 * address is theirs. A held e-mail deleted since (the person erased again, retention) ends the link.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  ADDRESS_CONFIRM_API,
  ADDRESS_CONFIRM_DAYS,
  addressConfirmPage as copy,
} from '~/content/address-confirm';
import { audit } from '../../kit/audit';
import { rowsOf } from '../../kit/db/rows';
import type { ServerContext } from '../../kit/http/form-handler';
import { jsonOnly, sameOriginOnly, send } from '../../kit/http/request-checks';
import { ADDRESS_CONFIRM_PURPOSE } from '../../kit/mail/address-confirm';
import { type ClaimedRow, suppressionHash } from '../../kit/mail/outbox';
import { endRecipientMarks } from '../../kit/mail/outbox-limits';

/** What following a link did. */
export type AddressConfirmed =
  { ok: true; reason: string | null; released: number } | { ok: false; status: 400 | 410; error: string };

/** Follows one address confirmation link (the route's work, without HTTP). */
export async function confirmAddress(
  { db, links, config }: Pick<ServerContext, 'db' | 'links' | 'config'>,
  token: unknown,
): Promise<AddressConfirmed> {
  const verified = await links.tokens.verify(ADDRESS_CONFIRM_PURPOSE, token);
  if (!verified.ok) {
    return verified.reason === 'expired'
      ? { ok: false, status: 410, error: copy.expired }
      : { ok: false, status: 400, error: copy.invalid };
  }
  const heldId = /^[1-9][0-9]{0,17}$/.test(verified.subject) ? Number(verified.subject) : NaN;
  if (!Number.isSafeInteger(heldId)) return { ok: false, status: 400, error: copy.invalid };
  return db.transaction(async (tx): Promise<AddressConfirmed> => {
    const [held] = rowsOf<{ to_address: string }>(
      await tx.execute(sql`select to_address from outbox where id = ${heldId} for update`),
    );
    if (!held) return { ok: false, status: 410, error: copy.gone };
    if (!(await links.tokens.consume(tx, ADDRESS_CONFIRM_PURPOSE, verified))) {
      return { ok: false, status: 410, error: copy.used };
    }
    const hash = suppressionHash(config.appSecret, held.to_address);
    const [lifted] = rowsOf<{ reason: string }>(
      await tx.execute(sql`delete from suppressions where hash = ${hash} returning reason`),
    );
    // Only what was asked for on the site for this address: never an owner's notification held
    // while the address was an owner's and suppressed.
    const released = rowsOf<{ kind: string; to_address: string; message: ClaimedRow['message'] | string }>(
      await tx.execute(sql`
        update outbox set status = 'pending', attempts = 0, next_attempt_at = now(), sent_at = null,
          last_error = null
        where lower(to_address) = ${held.to_address.trim().toLowerCase()} and status = 'suppressed'
          and audience = 'visitor'
          and created_at > now() - make_interval(days => ${ADDRESS_CONFIRM_DAYS})
        returning kind, message, to_address`),
    );
    await endRecipientMarks(tx, config.appSecret, released);
    await audit(tx, 'visitor', 'suppression.lift', hash.slice(0, 16), {
      by: 'link',
      reason: lifted?.reason ?? 'none',
      released: released.length,
    });
    return { ok: true, reason: lifted?.reason ?? null, released: released.length };
  });
}

export function addressConfirmRoute(app: FastifyInstance, ctx: ServerContext) {
  app.post(
    ADDRESS_CONFIRM_API,
    { onRequest: [sameOriginOnly(ctx.config), jsonOnly] },
    async (request, reply) => {
      const body = request.body as { token?: unknown } | null;
      const outcome = await confirmAddress(ctx, body?.token);
      if (!outcome.ok) return send(reply, outcome.status, { error: outcome.error });
      if (outcome.released > 0) ctx.wakeOutbox();
      request.log.info(
        { released: outcome.released, reason: outcome.reason },
        'address confirmed by its link',
      );
      return send(reply, 200, { status: 'confirmed' });
    },
  );
}

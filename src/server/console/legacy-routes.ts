/**
 * Console routes not yet declared in the contract; each group moves to its area's module.
 * BEFORE EDITING THIS FILE OR ANY OTHER: read /tmp/area.md (how to work in this checkout, the
 * pattern, and the commit rules). This note is removed when the file is.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OWNER_API, type SessionInfo } from '~/contract/console';
import type {} from '../kit/config';
import type {} from '../kit/db/client';
import type {} from '../kit/http/form-handler';
import type {} from '../kit/http/links';
import { Refusal, send } from '../kit/http/request-checks';
import { auditPage } from './audit';
import { audit } from '../kit/audit';
import { deliveryFilter, deliverySummaries, retryDelivery } from './deliveries';
import { configWarnings, overview } from './overview';
import { confirmedSubscribers, SUBSCRIBER_HEADERS } from './exports';
import { csvStream } from '../kit/http/csv';
import type {} from '../kit/personal-data';
import { subscriberPage, suppressionPage } from './subscribers';
import { listPasskeys, registerPasskey, registrationOptions, removePasskey } from './passkeys';
import { clearCookie, endAllSessions, endSession } from './sessions';

import type { ConsoleOptions } from './plugin';

type Body = Record<string, unknown>;
const bodyOf = (request: FastifyRequest): Body =>
  typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
    ? (request.body as Body)
    : {};

export async function legacyRoutes(owned: FastifyInstance, options: ConsoleOptions) {
  const { config, db, wakeOutbox } = options;
  const clock = options.clock ?? (() => new Date());
  const who = (request: FastifyRequest) => request.owner!.email;
  const param = (request: FastifyRequest, name: string) =>
    String((request.params as Record<string, string>)[name] ?? '');

  owned.get(`${OWNER_API}/session`, async (request, reply) => {
    const passkeys = await listPasskeys(db, who(request));
    const info: SessionInfo = {
      email: who(request),
      configWarnings: configWarnings(config),
      passkeys: passkeys.length,
    };
    return send(reply, 200, info);
  });

  owned.post(`${OWNER_API}/sign-out`, async (request, reply) => {
    await endSession(db, request.owner!.id, clock());
    await audit(db, who(request), 'sign-out');
    clearCookie(config, reply);
    return send(reply, 200, { ok: true });
  });

  owned.post(`${OWNER_API}/sign-out-everywhere`, async (request, reply) => {
    const ended = await endAllSessions(db, who(request), clock());
    await audit(db, who(request), 'sign-out.everywhere', undefined, { ended });
    clearCookie(config, reply);
    return send(reply, 200, { ok: true, ended });
  });

  // Passkeys of the signed-in owner.
  owned.get(`${OWNER_API}/passkeys`, async (request, reply) =>
    send(reply, 200, { passkeys: await listPasskeys(db, who(request)) }),
  );
  owned.post(`${OWNER_API}/passkeys/register/options`, async (request, reply) =>
    send(reply, 200, await registrationOptions(db, config, who(request), clock())),
  );
  owned.post(`${OWNER_API}/passkeys/register`, async (request, reply) => {
    const passkey = await registerPasskey(db, config, who(request), bodyOf(request), clock());
    await audit(db, who(request), 'passkey.register', passkey.id.slice(0, 16));
    return send(reply, 200, passkey);
  });
  owned.post(`${OWNER_API}/passkeys/:id/delete`, async (request, reply) => {
    const id = param(request, 'id');
    if (!(await removePasskey(db, who(request), id)))
      throw new Refusal(404, { error: 'There is no such passkey.' });
    await audit(db, who(request), 'passkey.remove', id.slice(0, 16));
    return send(reply, 200, { ok: true });
  });

  owned.get(`${OWNER_API}/overview`, async (_request, reply) => send(reply, 200, await overview(db, config)));

  // Deliveries.
  owned.get(`${OWNER_API}/deliveries`, async (request, reply) =>
    send(reply, 200, {
      items: await deliverySummaries(db, deliveryFilter((request.query as Body).status, clock())),
    }),
  );
  owned.post(`${OWNER_API}/deliveries/:id/retry`, async (request, reply) => {
    const id = Number(param(request, 'id'));
    if (!Number.isSafeInteger(id) || id <= 0) throw new Refusal(404, { error: 'There is no such e-mail.' });
    await retryDelivery(db, id);
    await audit(db, who(request), 'delivery.retry', id);
    wakeOutbox();
    return send(reply, 200, { ok: true });
  });

  // Personal data: subscribers, suppressions, exports, people, retention.

  owned.get(`${OWNER_API}/subscribers`, async (request, reply) => {
    const query = request.query as Body;
    return send(reply, 200, await subscriberPage(db, query.status, query.after));
  });
  owned.get(`${OWNER_API}/suppressions`, async (request, reply) =>
    send(reply, 200, await suppressionPage(db, (request.query as Body).after)),
  );
  const download = (reply: FastifyReply, name: string, type: string) =>
    reply
      .header('content-type', type)
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('x-content-type-options', 'nosniff');
  owned.get(`${OWNER_API}/exports/subscribers.csv`, async (request, reply) => {
    await audit(db, who(request), 'export.subscribers');
    const day = clock().toISOString().slice(0, 10);
    return download(reply, `subscribers-${day}.csv`, 'text/csv; charset=utf-8').send(
      csvStream(SUBSCRIBER_HEADERS, confirmedSubscribers(db)),
    );
  });

  owned.get(`${OWNER_API}/audit`, async (request, reply) => {
    const after = (request.query as Body).after;
    const id = typeof after === 'string' && /^\d{1,18}$/.test(after) ? Number(after) : undefined;
    return send(reply, 200, await auditPage(db, id));
  });
}

/**
 * The Security area: the signed-in owner's session (who, the settings to warn about, how many
 * passkeys), signing out here or everywhere, and the owner's passkeys (list, add, remove). Every
 * change writes its audit row in the same transaction.
 */
import { NO_SUCH_PASSKEY, securityRoutes } from '~/contract/security';
import { audit } from '../kit/audit';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';
import { configWarnings } from './overview';
import { listPasskeys, registerPasskey, registrationOptions, removePasskey } from './passkeys';
import { clearCookie, endAllSessions, endSession } from './sessions';

export const securityArea: ConsoleArea = (routes, { config, db, clock }) => {
  routes.on(securityRoutes.session, async ({ owner }) => ({
    email: owner.email,
    name: owner.name,
    role: owner.role,
    configWarnings: configWarnings(config),
    passkeys: (await listPasskeys(db, owner.email)).length,
  }));

  routes.on(securityRoutes.signOut, async ({ owner, reply }) => {
    await db.transaction(async (tx) => {
      await endSession(tx, owner.id, clock());
      await audit(tx, owner.email, 'sign-out');
    });
    clearCookie(config, reply);
    return { ok: true as const };
  });

  routes.on(securityRoutes.signOutEverywhere, async ({ owner, reply }) => {
    const ended = await db.transaction(async (tx) => {
      const ended = await endAllSessions(tx, owner.email, clock());
      await audit(tx, owner.email, 'sign-out.everywhere', undefined, { ended });
      return ended;
    });
    clearCookie(config, reply);
    return { ok: true as const, ended };
  });

  routes.on(securityRoutes.passkeys, async ({ owner }) => ({
    passkeys: await listPasskeys(db, owner.email),
  }));

  routes.on(securityRoutes.registerOptions, ({ owner }) =>
    registrationOptions(db, config, owner.email, clock()),
  );

  routes.on(securityRoutes.register, ({ body, owner }) =>
    registerPasskey(db, config, owner.email, body, clock(), (tx, passkey) =>
      audit(tx, owner.email, 'passkey.register', passkey.id.slice(0, 16)),
    ),
  );

  routes.on(securityRoutes.removePasskey, async ({ params: { id }, owner }) => {
    await db.transaction(async (tx) => {
      if (!(await removePasskey(tx, owner.email, id))) throw new Refusal(404, { error: NO_SUCH_PASSKEY });
      await audit(tx, owner.email, 'passkey.remove', id.slice(0, 16));
    });
    return { ok: true as const };
  });
};

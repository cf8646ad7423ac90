/**
 * Passkeys (WebAuthn) with @simplewebauthn/server: a signed-in owner registers one, and signs
 * in with it next time. The relying party is PUBLIC_URL's host name and the only origin accepted
 * is PUBLIC_URL's. Each challenge is a row used once (deleted as it is read) within five minutes,
 * so two server instances share them and a replayed answer finds nothing.
 */
import { randomBytes } from 'node:crypto';
import type * as SimpleWebAuthn from '@simplewebauthn/server';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, eq, gt } from 'drizzle-orm';
import { site } from '~/content/site';
import type { PasskeyInfo } from '~/contract/console';
import type { BodyOf } from '~/contract/route';
import { PASSKEY_REFUSED, type securityRoutes, type signInRoutes } from '~/contract/security';
import type { Config } from '../kit/config';
import type { Db, Queryable, Tx } from '../kit/db/client';
import { Refusal } from '../kit/http/request-checks';
import { ownerChallenges, ownerPasskeys } from './tables';

const CHALLENGE_MS = 5 * 60_000;

/**
 * The WebAuthn library, loaded when a passkey is first used: with its ASN.1 and COSE code it adds
 * about 20 MB to a process's memory, which every server would otherwise carry from its start for
 * a screen one person opens now and then (the server's 200 MB target, decision 020).
 */
let webauthn: Promise<typeof SimpleWebAuthn> | undefined;
const loadWebauthn = () => (webauthn ??= import('@simplewebauthn/server'));

type Party = { rpID: string; origin: string };

export function relyingParty(config: Pick<Config, 'publicUrl'>): Party {
  const url = new URL(config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

async function saveChallenge(
  db: Queryable,
  purpose: 'register' | 'authenticate',
  challenge: string,
  email: string | null,
  now: Date,
): Promise<string> {
  const id = randomBytes(18).toString('base64url');
  await db
    .insert(ownerChallenges)
    .values({ id, purpose, challenge, email, expiresAt: new Date(now.getTime() + CHALLENGE_MS) });
  return id;
}

/** Takes a challenge: it is deleted as it is read, so it answers once. */
async function takeChallenge(
  db: Queryable,
  id: string,
  purpose: 'register' | 'authenticate',
  now: Date,
): Promise<{ challenge: string; email: string | null }> {
  const [row] = await db
    .delete(ownerChallenges)
    .where(
      and(
        eq(ownerChallenges.id, id),
        eq(ownerChallenges.purpose, purpose),
        gt(ownerChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: ownerChallenges.challenge, email: ownerChallenges.email });
  if (!row) throw new Refusal(400, { error: PASSKEY_REFUSED });
  return row;
}

export async function registrationOptions(
  db: Queryable,
  config: Pick<Config, 'publicUrl'>,
  email: string,
  now: Date,
) {
  const existing = await db
    .select({ id: ownerPasskeys.id, transports: ownerPasskeys.transports })
    .from(ownerPasskeys)
    .where(eq(ownerPasskeys.email, email));
  const { generateRegistrationOptions } = await loadWebauthn();
  const options = await generateRegistrationOptions({
    rpName: `${site.brand} console`,
    rpID: relyingParty(config).rpID,
    userName: email,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({
      id: p.id,
      transports: (p.transports ?? undefined) as AuthenticatorTransportFuture[] | undefined,
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const challengeId = await saveChallenge(db, 'register', options.challenge, email, now);
  return { challengeId, options };
}

/**
 * Verifies a new passkey's answer and stores the passkey; `write` runs in the same transaction as
 * the insert (the owner's audit row).
 */
export async function registerPasskey(
  db: Db,
  config: Pick<Config, 'publicUrl'>,
  email: string,
  body: BodyOf<typeof securityRoutes.register>,
  now: Date,
  write?: (tx: Tx, passkey: PasskeyInfo) => Promise<void>,
): Promise<PasskeyInfo> {
  const taken = await takeChallenge(db, body.challengeId, 'register', now);
  if (taken.email !== email) throw new Refusal(400, { error: PASSKEY_REFUSED });
  const party = relyingParty(config);
  let verification;
  try {
    const { verifyRegistrationResponse } = await loadWebauthn();
    verification = await verifyRegistrationResponse({
      response: body.response as unknown as RegistrationResponseJSON,
      expectedChallenge: taken.challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.rpID,
      requireUserVerification: false,
    });
  } catch {
    throw new Refusal(400, { error: PASSKEY_REFUSED });
  }
  if (!verification.verified || !verification.registrationInfo)
    throw new Refusal(400, { error: PASSKEY_REFUSED });
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const name = body.name || `Passkey added ${now.toISOString().slice(0, 10)}`;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(ownerPasskeys)
      .values({
        id: credential.id,
        email,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? null,
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new Refusal(409, { error: 'This passkey is registered already.' });
    const passkey = info(row);
    await write?.(tx, passkey);
    return passkey;
  });
}

function info(row: typeof ownerPasskeys.$inferSelect): PasskeyInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}

export async function listPasskeys(db: Queryable, email: string): Promise<PasskeyInfo[]> {
  const rows = await db
    .select()
    .from(ownerPasskeys)
    .where(eq(ownerPasskeys.email, email))
    .orderBy(ownerPasskeys.createdAt);
  return rows.map(info);
}

export async function removePasskey(db: Queryable, email: string, id: string): Promise<boolean> {
  const removed = await db
    .delete(ownerPasskeys)
    .where(and(eq(ownerPasskeys.id, id), eq(ownerPasskeys.email, email)))
    .returning({ id: ownerPasskeys.id });
  return removed.length > 0;
}

/** Options for signing in with any of the owners' passkeys (discoverable credentials). */
export async function authenticationOptions(db: Queryable, config: Pick<Config, 'publicUrl'>, now: Date) {
  const { generateAuthenticationOptions } = await loadWebauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(config).rpID,
    userVerification: 'preferred',
  });
  const challengeId = await saveChallenge(db, 'authenticate', options.challenge, null, now);
  return { challengeId, options };
}

/** The owner a passkey answer proves, or a refusal. */
export async function authenticate(
  db: Queryable,
  config: Pick<Config, 'publicUrl' | 'ownerEmails'>,
  body: BodyOf<typeof signInRoutes.passkey>,
  now: Date,
): Promise<string> {
  const taken = await takeChallenge(db, body.challengeId, 'authenticate', now);
  const response = body.response as unknown as AuthenticationResponseJSON;
  const [passkey] = response.id
    ? await db.select().from(ownerPasskeys).where(eq(ownerPasskeys.id, response.id))
    : [];
  if (!passkey || !config.ownerEmails.includes(passkey.email))
    throw new Refusal(400, { error: PASSKEY_REFUSED });
  const party = relyingParty(config);
  let verification;
  try {
    const { verifyAuthenticationResponse } = await loadWebauthn();
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: taken.challenge,
      expectedOrigin: party.origin,
      expectedRPID: party.rpID,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: (passkey.transports ?? undefined) as AuthenticatorTransportFuture[] | undefined,
      },
      requireUserVerification: false,
    });
  } catch {
    throw new Refusal(400, { error: PASSKEY_REFUSED });
  }
  if (!verification.verified) throw new Refusal(400, { error: PASSKEY_REFUSED });
  await db
    .update(ownerPasskeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: now })
    .where(eq(ownerPasskeys.id, passkey.id));
  return passkey.email;
}

/**
 * Signing in to the console and the owner's security screen: the routes, shared by the console in
 * the browser and the server (src/server/console/sign-in.ts and security.ts). Their answers' types
 * are in src/contract/console.ts. The sign-in routes need no session; the others do.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { EMAIL_PATTERN } from '~/lib/patterns';
import { INVALID_EMAIL_MESSAGE } from '~/lib/validation';
import { z } from '~/lib/zod';
import type { PasskeyInfo, SessionInfo, SignedIn, SignInRequestAnswer } from './console';
import { route } from './route';

export const LINK_INVALID = 'This sign-in link is not valid. Ask for a new one.';
export const PASSKEY_REFUSED = 'That passkey could not be used. Try again, or sign in with an e-mail link.';
export const NO_SUCH_PASSKEY = 'There is no such passkey.';

/** A WebAuthn ceremony's start: the challenge's id, to send back with the answer, and the options. */
export type PasskeyChallenge<Options> = { challengeId: string; options: Options };

/** The address a link is asked for: at most 254 characters as typed, then trimmed and lower-cased. */
const signInAddress = z
  .string({ error: INVALID_EMAIL_MESSAGE })
  .max(254, { error: INVALID_EMAIL_MESSAGE })
  .trim()
  .regex(EMAIL_PATTERN, { error: INVALID_EMAIL_MESSAGE })
  .toLowerCase();

/**
 * A passkey's answer to a challenge: the challenge's id and the browser's WebAuthn response, an
 * object handed on to @simplewebauthn as it came (the library checks the rest). Its `id` names
 * the credential.
 */
const passkeyAnswer = z.object({
  challengeId: z.string().max(64),
  response: z.looseObject({ id: z.string() }),
});
const passkeyRefused = { invalid: PASSKEY_REFUSED, fieldErrors: false } as const;

export const signInRoutes = {
  /** Always 202 with the same message, whoever asks (unless 429): nobody learns who the owner is. */
  request: route<SignInRequestAnswer>()({
    method: 'POST',
    path: '/sign-in',
    body: z.object({ email: signInAddress }),
    invalid: INVALID_EMAIL_MESSAGE,
    status: 202,
  }),
  /** The e-mailed link's token: 200 and the session cookie; 400, 409 (used) or 410 (expired). */
  link: route<SignedIn>()({
    method: 'POST',
    path: '/sign-in/link',
    body: z.object({ token: z.string() }),
    invalid: LINK_INVALID,
    fieldErrors: false,
  }),
  passkeyOptions: route<PasskeyChallenge<PublicKeyCredentialRequestOptionsJSON>>()({
    method: 'POST',
    path: '/passkeys/authenticate/options',
  }),
  /** 200 and the session cookie. */
  passkey: route<SignedIn>()({
    method: 'POST',
    path: '/passkeys/authenticate',
    body: passkeyAnswer,
    ...passkeyRefused,
  }),
};

/** Each person's own session and passkeys: a helper's too (decision 032). */
export const securityRoutes = {
  session: route<SessionInfo>()({ method: 'GET', path: '/session', role: 'helper' }),
  /** Ends this session. */
  signOut: route<{ ok: true }>()({ method: 'POST', path: '/sign-out', role: 'helper' }),
  /** Ends every session of the owner, this one included. */
  signOutEverywhere: route<{ ok: true; ended: number }>()({
    method: 'POST',
    path: '/sign-out-everywhere',
    role: 'helper',
  }),
  passkeys: route<{ passkeys: PasskeyInfo[] }>()({ method: 'GET', path: '/passkeys', role: 'helper' }),
  registerOptions: route<PasskeyChallenge<PublicKeyCredentialCreationOptionsJSON>>()({
    method: 'POST',
    path: '/passkeys/register/options',
    role: 'helper',
  }),
  register: route<PasskeyInfo>()({
    method: 'POST',
    path: '/passkeys/register',
    role: 'helper',
    body: passkeyAnswer.extend({
      // Trimmed and cut to 60 characters; none, empty or not text: named by its day.
      name: z
        .string()
        .trim()
        .transform((name) => name.slice(0, 60))
        .optional()
        .catch(undefined),
    }),
    ...passkeyRefused,
  }),
  removePasskey: route<{ ok: true }>()({
    method: 'POST',
    path: '/passkeys/:id/delete',
    role: 'helper',
    // A credential's id is base64url.
    params: z.object({ id: z.string().regex(/^[\w-]+$/) }),
    notFound: NO_SUCH_PASSKEY,
  }),
};

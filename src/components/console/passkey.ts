/**
 * A passkey ceremony in the browser, as Security (adding one) and the sign-in page (signing in
 * with one) run it: the server's options, the browser's own dialog, the answer sent back. Like
 * the console's requests it never throws for a refusal: what goes wrong in the browser (no
 * WebAuthn, the dialog cancelled) comes back as a failure with status 0 and the words to show.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { ApiResult } from '~/lib/api-client';
import { post } from './http';

type Ceremony = {
  register: Parameters<typeof startRegistration>[0]['optionsJSON'];
  authenticate: Parameters<typeof startAuthentication>[0]['optionsJSON'];
};

/** The browser's WebAuthn refusals that mean "cancelled or timed out", not a fault. */
function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

/** The browser's part: the dialog that creates a passkey, or the one that uses it. */
function start<K extends keyof Ceremony>(kind: K, optionsJSON: Ceremony[K]) {
  return kind === 'register'
    ? startRegistration({ optionsJSON: optionsJSON as Ceremony['register'] })
    : startAuthentication({ optionsJSON: optionsJSON as Ceremony['authenticate'] });
}

/**
 * Runs `POST /passkeys/<kind>/options`, the browser's dialog, then `POST /passkeys/<kind>` with the
 * challenge, the browser's response and `extra`; answers the server's last answer.
 */
export async function passkeyCeremony<T, K extends keyof Ceremony = keyof Ceremony>(
  kind: K,
  words: { unsupported: string; cancelled: string },
  extra: Record<string, unknown> = {},
): Promise<ApiResult<T>> {
  if (!browserSupportsWebAuthn()) return { ok: false, status: 0, error: words.unsupported };
  const options = await post<{ challengeId: string; options: Ceremony[K] }>(`/passkeys/${kind}/options`);
  if (!options.ok) return options;
  let response;
  try {
    response = await start(kind, options.data.options);
  } catch (error) {
    return {
      ok: false,
      status: 0,
      error: isCancelled(error) ? words.cancelled : String((error as Error).message),
    };
  }
  return post<T>(`/passkeys/${kind}`, { challengeId: options.data.challengeId, response, ...extra });
}

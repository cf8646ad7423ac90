/**
 * One form's fill-time token (see spam-traps.ts), loaded on the form's first focus: fetched
 * then, sent with the form, renewed when it is about to expire while the page sits open (the
 * renewal keeps the original start, which the server signed).
 */
import type { FormTokenAnswer } from './spam-traps';

/** Where a form gets its token: POST `{formType}`, or `{formType, renew}` with an expiring one. */
export const FORM_TOKEN_API = '/api/form-token';

/** A token in hand, and when to renew it: after 25 minutes (tokens live 30, form-start.ts). */
type Held = { token: string; renewAt: number };

/**
 * Asks for a token, or a renewal. A plain fetch rather than the api client: this runs on every
 * page with a form, before the form's own code has loaded. No token: the submission says why.
 */
async function fetchToken(formType: string, renew?: string): Promise<Held | undefined> {
  try {
    const res = await fetch(FORM_TOKEN_API, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ formType, renew }),
    });
    const answer = (await res.json()) as FormTokenAnswer;
    return res.ok ? { token: answer.token, renewAt: performance.now() + 15e5 } : undefined;
  } catch {
    return undefined;
  }
}

export type FormToken = ReturnType<typeof formToken>;

export function formToken(formType: string) {
  let held: Promise<Held | undefined> | undefined;
  const start = () => (held ??= fetchToken(formType));
  return {
    start,
    /** The token to send now. */
    async current(): Promise<string> {
      let token = await start();
      // None yet (the first fetch failed), or one about to expire: ask again, keeping the start.
      if (!token || performance.now() > token.renewAt)
        token = (await (held = fetchToken(formType, token?.token))) ?? token;
      if (!token) held = undefined;
      return token?.token ?? '';
    },
  };
}

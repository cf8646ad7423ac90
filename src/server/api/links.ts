/**
 * Links in e-mails: absolute URLs from PUBLIC_URL, and tokens that prove a link came from us.
 * A token is `<id>.<HMAC(APP_SECRET, purpose:id)>`: unguessable, checkable without a lookup,
 * and bound to one purpose (a confirm token cannot unsubscribe).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Links = {
  /** `path` on the public site, e.g. `/guides/x.pdf` -> `https://www.example.com/guides/x.pdf`. */
  absolute(path: string): string;
  sign(purpose: string, id: string): string;
  /** The id the token was made for, or undefined when it is not a valid token for `purpose`. */
  verify(purpose: string, token: unknown): string | undefined;
  /** Keyed hash of a client address: stored instead of the address. */
  hashAddress(address: string): string;
};

export function createLinks(publicUrl: string, secret: string): Links {
  const mac = (purpose: string, id: string) =>
    createHmac('sha256', secret).update(`${purpose}:${id}`).digest('base64url');
  return {
    absolute: (path) => `${publicUrl}${path.startsWith('/') ? '' : '/'}${path}`,
    sign: (purpose, id) => `${id}.${mac(purpose, id)}`,
    verify(purpose, token) {
      if (typeof token !== 'string' || token.length > 200) return undefined;
      const dot = token.lastIndexOf('.');
      if (dot <= 0) return undefined;
      const id = token.slice(0, dot);
      const expected = Buffer.from(mac(purpose, id));
      const given = Buffer.from(token.slice(dot + 1));
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
    },
    hashAddress: (address) => createHmac('sha256', secret).update(`ip:${address}`).digest('base64url'),
  };
}

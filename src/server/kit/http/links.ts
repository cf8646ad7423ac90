/**
 * Links in e-mails and what proves they came from us: absolute URLs from PUBLIC_URL, the signed
 * tokens they carry (./signed-tokens.ts), and keyed hashes that stand in for personal values.
 */
import { createHmac } from 'node:crypto';
import { createSignedTokens, type SignedTokens } from './signed-tokens';

export type Links = {
  /** `path` on the public site, e.g. `/guides/x.pdf` -> `https://www.example.com/guides/x.pdf`. */
  absolute(path: string): string;
  tokens: SignedTokens;
  /** Keyed hash of a client address: stored instead of the address. */
  hashAddress(address: string): string;
};

export function createLinks(publicUrl: string, secret: string): Links {
  return {
    absolute: (path) => `${publicUrl}${path.startsWith('/') ? '' : '/'}${path}`,
    tokens: createSignedTokens(secret),
    hashAddress: (address) => createHmac('sha256', secret).update(`ip:${address}`).digest('base64url'),
  };
}

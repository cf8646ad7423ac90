/** The response headers the server promises, as assertions shared by the server test suites. */
import { expect } from 'vitest';

function directives(csp: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of String(csp).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values);
  }
  return out;
}

/**
 * A document (page, SVG, PDF, text, API answer): a strict CSP, no framing, the private referrer
 * policy, CORP, nosniff and the Permissions-Policy. `voice` is for the AI pages, where the voice
 * consultant runs: they alone may use the microphone and reach the voice provider.
 */
export function expectDocumentHeaders(
  headers: Record<string, unknown>,
  where = '',
  { voice = false }: { voice?: boolean } = {},
) {
  const csp = directives(headers['content-security-policy']);
  expect(["'none'", "'self'"], `${where} default-src`).toContain(csp.get('default-src')?.join(' '));
  const scriptSrc = csp.get('script-src') ?? csp.get('default-src') ?? [];
  expect(scriptSrc, `${where} script-src`).not.toContain("'unsafe-inline'");
  expect(scriptSrc, `${where} script-src`).not.toContain("'unsafe-eval'");
  expect(csp.get('object-src'), `${where} object-src`).toEqual(["'none'"]);
  expect(csp.get('base-uri'), `${where} base-uri`).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), `${where} frame-ancestors`).toEqual(["'none'"]);
  expect(csp.get('form-action'), `${where} form-action`).toEqual(["'self'"]);
  expect(headers['x-frame-options'], where).toBe('DENY');
  const permissions = String(headers['permissions-policy']).split(/,\s*/);
  expect(permissions, `${where} Permissions-Policy`).toContain(voice ? 'microphone=(self)' : 'microphone=()');
  expect(permissions, `${where} Permissions-Policy`).not.toContain(
    voice ? 'microphone=()' : 'microphone=(self)',
  );
  expect(permissions, `${where} Permissions-Policy`).toContain('camera=()');
  if (voice) {
    // The exact host Daily's call machine comes from; no wildcard and no blob: for scripts.
    expect(scriptSrc, `${where} script-src`).toContain('https://c.daily.co');
    expect(
      scriptSrc.filter((v) => v.includes('*') || v === 'blob:'),
      `${where} script-src`,
    ).toEqual([]);
    expect(csp.get('connect-src'), `${where} connect-src`).toContain('https://api.vapi.ai');
  } else {
    expect(String(headers['content-security-policy']), `${where} CSP`).not.toMatch(/vapi|daily|pluot|blob:/);
  }
  expectSubresourceBasics(headers, where);
}

/** Scripts, styles and images: what a subresource needs, none of the document-only headers. */
export function expectSubresourceHeaders(headers: Record<string, unknown>, where = '') {
  expectSubresourceBasics(headers, where);
  for (const documentOnly of [
    'content-security-policy',
    'x-frame-options',
    'permissions-policy',
    'cross-origin-opener-policy',
  ])
    expect(headers[documentOnly], `${where} ${documentOnly}`).toBeUndefined();
}

function expectSubresourceBasics(headers: Record<string, unknown>, where: string) {
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  expect(headers['cross-origin-resource-policy'], where).toBe('same-origin');
  expect(headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
}

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
 * policy, CORP, nosniff and the Permissions-Policy.
 */
export function expectDocumentHeaders(headers: Record<string, unknown>, where = '') {
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
  expect(String(headers['permissions-policy']), where).toContain('microphone=(self)');
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

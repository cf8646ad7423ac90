/**
 * The security headers of every response. HTML pages get a Content-Security-Policy that
 * allows exactly the inline scripts the build emitted (their sha256 hashes, computed at build
 * time); every other response gets the same policy with no script allowance at all.
 */
import { AI_PATHS } from '~/content/routes';

export type HeaderList = [string, string][];

/**
 * Origins the voice SDK (and the Daily call it joins) needs. Only the AI pages allow them.
 * Read from `@vapi-ai/web` 2.7.1 and `@daily-co/daily-js` 0.87.0 (decision 005): the SDK
 * fetches `https://api.vapi.ai`, and Daily loads its call machine as a <script> from exactly
 * `https://c.daily.co/call-machine/versioned/0.87.0/…` (the SDK's avoidEval). The hosts the
 * call machine then talks to (the room's `*.daily.co` domain, which the web call's answer
 * names, its signalling over `wss://*.wss.daily.co`, media servers on `*.pluot.blue`) are not
 * in either package, so they stay wildcards. No script of the SDK comes from a `blob:` URL.
 */
export const VOICE_CSP = {
  connect: ['https://api.vapi.ai', 'https://*.daily.co', 'wss://*.wss.daily.co', 'https://*.pluot.blue'],
  script: ['https://c.daily.co'],
  worker: ['blob:'],
  media: ['blob:', 'https://*.daily.co'],
} as const;

type CspOptions = {
  scriptHashes?: readonly string[];
  voice?: boolean;
  https?: boolean;
  /**
   * The console's page: images from any https site too, so that the newsletter's preview shows an
   * issue's images as a mail client would (decision 046). Images only: never script or frames.
   */
  remoteImages?: boolean;
};

export function contentSecurityPolicy({
  scriptHashes = [],
  voice = false,
  https = false,
  remoteImages = false,
}: CspOptions): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...scriptHashes, ...(voice ? VOICE_CSP.script : [])]],
    // Style attributes from React/Radix and <style> tags from Radix's scroll lock: styles only, never script.
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', ...(remoteImages ? ['https:'] : [])]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...(voice ? VOICE_CSP.connect : [])]],
    ['media-src', ["'self'", ...(voice ? VOICE_CSP.media : [])]],
    ['worker-src', ["'self'", ...(voice ? VOICE_CSP.worker : [])]],
    ['manifest-src', ["'self'"]],
    ['frame-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  if (https) directives.push(['upgrade-insecure-requests', []]);
  return directives.map(([name, values]) => [name, ...values].join(' ')).join('; ');
}

/**
 * The Permissions-Policy of a document. Only the AI pages, where the voice consultant runs,
 * may ask for the microphone; every other document gives it up, so a script injected there
 * could not either.
 */
export function permissionsPolicy({ microphone = false }: { microphone?: boolean } = {}): string {
  return [microphone ? 'microphone=(self)' : 'microphone=()', ...OTHER_PERMISSIONS].join(', ');
}

const OTHER_PERMISSIONS = [
  'camera=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'display-capture=()',
  'browsing-topics=()',
];

/**
 * Headers shared by every response; the CSP is added per response. `voice` is for the AI
 * pages alone: it lets them use the microphone.
 */
export function baseSecurityHeaders(https: boolean, { voice = false }: { voice?: boolean } = {}): HeaderList {
  const headers: HeaderList = [
    ['X-Frame-Options', 'DENY'],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['Permissions-Policy', permissionsPolicy({ microphone: voice })],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
  ];
  if (https) headers.push(['Strict-Transport-Security', 'max-age=63072000; includeSubDomains']);
  return headers;
}

/**
 * Headers for a subresource that a browser never renders as a document (scripts, stylesheets,
 * raster images, fonts, source maps): no sniffing, no cross-origin embedding, the referrer policy
 * (a stylesheet's requests follow it), HSTS over https. A CSP, frame options, Permissions-Policy
 * and COOP govern documents only; leaving them off saves some 560 bytes on each of the 30 or so
 * scripts a page loads (decision 010). SVG, PDF, XML, text and HTML keep the document headers.
 */
export function subresourceSecurityHeaders(https: boolean): HeaderList {
  const keep = new Set([
    'X-Content-Type-Options',
    'Referrer-Policy',
    'Cross-Origin-Resource-Policy',
    'Strict-Transport-Security',
  ]);
  return baseSecurityHeaders(https).filter(([name]) => keep.has(name));
}

export function isVoicePage(urlPath: string): boolean {
  return AI_PATHS.some((p) => urlPath === p || urlPath === `${p}/` || urlPath === `${p}/index.html`);
}

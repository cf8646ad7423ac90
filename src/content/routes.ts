/** Every public path of the site, in the order the sitemap lists them. */
export const PUBLIC_PATHS = [
  '/',
  '/about',
  '/services',
  '/ai',
  '/ai-coaching',
  '/book',
  '/resources',
  '/contact',
  '/privacy',
  '/terms',
] as const;

/** The AI coaching page's two paths: the only pages whose CSP admits the voice provider. */
export const AI_PATHS = ['/ai', '/ai-coaching'] as const;

/**
 * The not-found page is prerendered at this path and served by the server, with
 * status 404, for every path it does not know.
 */
export const NOT_FOUND_PATH = '/404';

/** Small pages reached from e-mail links (newsletter confirm/unsubscribe, booking actions). */
export const UTILITY_PATHS: readonly string[] = [
  '/booking/respond',
  '/booking/cancel',
  '/newsletter/confirm',
  '/newsletter/unsubscribe',
];

export const PRERENDER_PATHS = [...PUBLIC_PATHS, ...UTILITY_PATHS, NOT_FOUND_PATH];

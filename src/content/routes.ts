/**
 * Every page of the site, declared once: its path and its route module (in src/app/routes).
 * React Router's route config (src/app/routes.ts), the prerendered paths
 * (react-router.config.ts), the sitemap and the tests are all made from these lists.
 */
export type Page = { readonly path: string; readonly module: string };

/** The public pages, in the order the sitemap lists them. */
export const PUBLIC_PAGES = [
  { path: '/', module: 'home' },
  { path: '/about', module: 'about' },
  { path: '/services', module: 'services' },
  { path: '/ai', module: 'ai' },
  { path: '/ai-coaching', module: 'ai' },
  { path: '/book', module: 'book' },
  { path: '/resources', module: 'resources' },
  { path: '/contact', module: 'contact' },
  { path: '/privacy', module: 'privacy' },
  { path: '/terms', module: 'terms' },
] as const satisfies readonly Page[];

/**
 * Small pages reached from e-mail links (newsletter confirm/unsubscribe, booking actions, a
 * masterclass registration's cancel link: REGISTRATION_CANCEL_PATH in src/features/events/events-api.ts;
 * a suppressed address's confirmation: ADDRESS_CONFIRM_PATH in src/content/address-confirm.ts).
 */
export const UTILITY_PAGES: readonly Page[] = [
  { path: '/booking/respond', module: 'booking-respond' },
  { path: '/booking/cancel', module: 'booking-cancel' },
  { path: '/booking/reschedule', module: 'booking-reschedule' },
  { path: '/newsletter/confirm', module: 'newsletter-confirm' },
  { path: '/newsletter/unsubscribe', module: 'newsletter-unsubscribe' },
  { path: '/masterclass/cancel', module: 'masterclass-cancel' },
  { path: '/email/confirm', module: 'address-confirm' },
];

/**
 * The articles: one route for the list (`/resources/articles`) and every article under it
 * (`/resources/articles/<slug>`, one Markdown file each in src/content/articles). The paths of
 * the articles are read from those files at build time (react-router.config.ts, the sitemap).
 */
export const ARTICLES_PAGE = { path: '/resources/articles', module: 'articles' } as const satisfies Page;

/**
 * The masterclasses: one route for the list (`/masterclasses`) and each published one under it
 * (`/masterclasses/<slug>`), rendered by the server at each publication (decision 047).
 */
export const MASTERCLASSES_PAGE = { path: '/masterclasses', module: 'masterclasses' } as const satisfies Page;
export const masterclassPath = (slug: string) => `${MASTERCLASSES_PAGE.path}/${slug}`;

/**
 * The newsletter's archive (issue #26): one route for the list (`/newsletter`) and each issue the
 * owner put on the site (`/newsletter/<slug>`), rendered by the server at each publication
 * (decision 047); its Atom feed beside them. The e-mail links' pages under /newsletter/ (confirm,
 * unsubscribe) are routes of their own, matched first.
 */
export const NEWSLETTER_ARCHIVE_PAGE = {
  path: '/newsletter',
  module: 'newsletter-archive',
} as const satisfies Page;
export const newsletterIssuePath = (slug: string) => `${NEWSLETTER_ARCHIVE_PAGE.path}/${slug}`;
export const NEWSLETTER_FEED_PATH = '/newsletter/feed.xml';

/**
 * The owner's console: one route for `/owner` and every path under it, client-rendered. Its
 * prerendered shell holds no personal data; the server answers every `/owner/...` path with it,
 * `noindex` and never cached. Not in the sitemap.
 */
export const CONSOLE_PAGE = { path: '/owner', module: 'owner' } as const satisfies Page;

/**
 * The not-found page: its route matches every path no other page has, it is prerendered at
 * this path, and the server answers unknown paths with it and status 404.
 */
export const NOT_FOUND_PAGE = { path: '/404', module: 'not-found' } as const satisfies Page;

export type PublicPath = (typeof PUBLIC_PAGES)[number]['path'];

// The lists below are marked pure so that a bundle using none of them (the not-found page's,
// which needs NOT_FOUND_PATH alone) leaves out the whole table.

/** Every public path of the site, in the order the sitemap lists them. */
export const PUBLIC_PATHS: readonly PublicPath[] = /* @__PURE__ */ PUBLIC_PAGES.map((page) => page.path);

/** The AI coaching page's paths: the only pages whose CSP admits the voice provider. */
export const AI_PATHS: readonly PublicPath[] = /* @__PURE__ */ PUBLIC_PAGES.filter(
  (page) => page.module === 'ai',
).map((page) => page.path);

export const NOT_FOUND_PATH = NOT_FOUND_PAGE.path;

export const UTILITY_PATHS: readonly string[] = /* @__PURE__ */ UTILITY_PAGES.map((page) => page.path);

export const CONSOLE_PATH = CONSOLE_PAGE.path;

export const PRERENDER_PATHS = [
  ...PUBLIC_PATHS,
  ARTICLES_PAGE.path,
  MASTERCLASSES_PAGE.path,
  NEWSLETTER_ARCHIVE_PAGE.path,
  ...UTILITY_PATHS,
  CONSOLE_PATH,
  NOT_FOUND_PATH,
];

/**
 * React Router's route config, made from the list of pages in src/content/routes.ts: a page is
 * declared there once. A route module that serves more than one path (the AI coaching page)
 * gets an id per path.
 */
import { type RouteConfig, index, route } from '@react-router/dev/routes';
import {
  ARTICLES_PAGE,
  CONSOLE_PAGE,
  MASTERCLASSES_PAGE,
  NEWSLETTER_ARCHIVE_PAGE,
  NOT_FOUND_PAGE,
  PUBLIC_PAGES,
  UTILITY_PAGES,
  type Page,
} from '../content/routes';

const pages: readonly Page[] = [...PUBLIC_PAGES, ...UTILITY_PAGES];
const file = (page: Page) => `routes/${page.module}.tsx`;
const shared = (page: Page) => pages.filter((p) => p.module === page.module).length > 1;

export default [
  ...pages.map((page) =>
    page.path === '/'
      ? index(file(page))
      : route(page.path.slice(1), file(page), shared(page) ? { id: page.path.slice(1) } : {}),
  ),
  // The list of articles and every article (src/content/articles): one route.
  route(`${ARTICLES_PAGE.path.slice(1)}/*`, file(ARTICLES_PAGE)),
  // The list of masterclasses and each published one (decision 047): one route.
  route(`${MASTERCLASSES_PAGE.path.slice(1)}/*`, file(MASTERCLASSES_PAGE)),
  // The newsletter's archive and each issue on it (issue #26): one route.
  route(`${NEWSLETTER_ARCHIVE_PAGE.path.slice(1)}/*`, file(NEWSLETTER_ARCHIVE_PAGE)),
  // The console's own pages are matched inside it (src/console).
  route(`${CONSOLE_PAGE.path.slice(1)}/*`, file(CONSOLE_PAGE)),
  route('*', file(NOT_FOUND_PAGE)),
] satisfies RouteConfig;

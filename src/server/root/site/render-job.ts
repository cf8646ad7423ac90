/**
 * One rendering of the published pages (decision 047): what the main thread hands the render
 * thread (`render-worker.ts`) and what comes back. Shared by both sides, with no dependency.
 */
import { ARTICLES_PATH, articlePath } from '~/content/articles';
import type { Published } from '~/content/published';
import {
  ARTICLES_PAGE,
  MASTERCLASSES_PAGE,
  NEWSLETTER_ARCHIVE_PAGE,
  CONSOLE_PATH,
  PRERENDER_PATHS,
  masterclassPath,
  newsletterIssuePath,
  type PublicPath,
} from '~/content/routes';

export type RenderJob = {
  /** The app's server build, `<build>/render/index.js`. */
  renderBuild: string;
  publicUrl: string;
  published: Published;
};

/** A file of the site as its build would hold it: its path from the build's root, its copies. */
export type RenderedFile = {
  rel: string;
  body: Uint8Array;
  br?: Uint8Array;
  gz?: Uint8Array;
  /** An HTML page's inline scripts, for its CSP. */
  scriptHashes?: string[];
};

/** The Resources page (it shows the newest articles). */
const RESOURCES_PATH: PublicPath = '/resources';

/**
 * The pages made from what is published: Resources, the list of articles, and each article, the
 * masterclasses' and the newsletter archive's pages once there are any to show. A
 * page whose route's loader reads `publishedContext` is listed here, or it keeps the build's copy.
 */
export function publishedPagePaths(published: Published): string[] {
  const paths = [RESOURCES_PATH, ARTICLES_PAGE.path, ...published.articles.map((a) => articlePath(a.slug))];
  // The masterclasses' list and each one's page, once there is any (the build's list says none).
  const masterclasses = published.masterclasses ?? [];
  if (masterclasses.length > 0)
    paths.push(MASTERCLASSES_PAGE.path, ...masterclasses.map((m) => masterclassPath(m.slug)));
  // The newsletter's archive and each issue on it (the build's list says none), whenever the
  // publication says what is there: an issue taken off leaves the list too.
  if (published.newsletter)
    paths.push(NEWSLETTER_ARCHIVE_PAGE.path, ...published.newsletter.map((i) => newsletterIssuePath(i.slug)));
  // The business's details are in every page's footer: once set, every page but the console's
  // (client-rendered) is rendered with them. Until then the build's pages are right as they are
  // (they show no contact details).
  if (published.business) {
    for (const path of PRERENDER_PATHS) {
      if (path !== CONSOLE_PATH && !paths.includes(path)) paths.push(path);
    }
  }
  return paths;
}

/**
 * The paths only the published content answers: an article of the build that is not published
 * is not found (its prerendered page is hidden); a masterclass's page exists only published.
 */
export const PUBLISHED_PREFIXES = [`${ARTICLES_PATH}/`, `${MASTERCLASSES_PAGE.path}/`] as const;

/**
 * One rendering of the published pages (decision 047): what the main thread hands the render
 * thread (`render-worker.ts`) and what comes back. Shared by both sides, with no dependency.
 */
import { ARTICLES_PATH, articlePath } from '~/content/articles';
import type { Published } from '~/content/published';
import { ARTICLES_PAGE, type PublicPath } from '~/content/routes';

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

export type RenderResult = { files: RenderedFile[]; error?: undefined } | { error: string; files?: undefined };

/** The Resources page (it shows the newest articles). */
const RESOURCES_PATH: PublicPath = '/resources';

/**
 * The pages made from what is published: Resources, the list of articles, and each article. A
 * page whose route's loader reads `publishedContext` is listed here, or it keeps the build's copy.
 */
export function publishedPagePaths(published: Published): string[] {
  return [RESOURCES_PATH, ARTICLES_PAGE.path, ...published.articles.map((a) => articlePath(a.slug))];
}

/**
 * The paths only the published content answers: an article of the build that is not published
 * is not found (its prerendered page is hidden).
 */
export const PUBLISHED_PREFIXES = [`${ARTICLES_PATH}/`] as const;

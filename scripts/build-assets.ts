/**
 * Files generated from content at build time and written into the client build: sitemap.xml,
 * robots.txt, the articles' Atom feed and the guide PDF. Features add their own generators to
 * `generators`. (A masterclass's calendar file is answered by the server, from the database.)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { site } from '../src/content/site';
import {
  articlesDigest,
  BUILT_ARTICLES_FILE,
  readRepositoryArticles,
} from '../src/server/kit/repository-articles';
import { NEWSLETTER_FEED_PATH } from '../src/content/routes';
import { atomFeed, newsletterFeed, sitemapXml } from '../src/server/kit/site-files';
import { readArticleFiles } from './articles';
import { GUIDE_PDF_FILE, renderGuidePdf } from './guide-pdf';

const clientDir = process.argv[2];
if (!clientDir) throw new Error('usage: build-assets.ts <client dir>');
const publicUrl = (process.env.VITE_PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

type Generated = { path: string; body: string | Uint8Array };
type Generator = () => Promise<Generated[]> | Generated[];

const articles = readArticleFiles();

const sitemap: Generator = () => [
  { path: 'sitemap.xml', body: sitemapXml(publicUrl, articles) },
  { path: 'robots.txt', body: `User-agent: *\nAllow: /\n\nSitemap: ${publicUrl}/sitemap.xml\n` },
];

const guide: Generator = async () => [
  { path: GUIDE_PDF_FILE, body: await renderGuidePdf({ brand: site.brand, siteUrl: publicUrl }) },
];

/** The articles' Atom feed (/feed.xml, linked from every page's head by scripts/build.mjs) and the newsletter archive's. */
const feed: Generator = () => [
  { path: 'feed.xml', body: atomFeed(publicUrl, articles) },
  // The newsletter archive's, with no issue until the owner puts one on the site.
  { path: NEWSLETTER_FEED_PATH.slice(1), body: newsletterFeed(publicUrl, []) },
];

const generators: Generator[] = [sitemap, guide, feed];

for (const generate of generators) {
  for (const file of await generate()) {
    const target = join(clientDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.body);
  }
}

// Beside the client build, not in it: the record of the articles the pages were prerendered from.
await writeFile(
  join(clientDir, '..', BUILT_ARTICLES_FILE),
  JSON.stringify({ digest: articlesDigest(await readRepositoryArticles()) }, null, 2),
);

/**
 * Files generated from content at build time and written into the client build: sitemap.xml,
 * robots.txt, the articles' Atom feed and the guide PDF. Features add their own generators to
 * `generators`. (A masterclass's calendar file is answered by the server, from the database.)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Feed } from 'feed';
import { ARTICLES_PATH, articlePath } from '../src/content/articles';
import { ARTICLES_PAGE, PUBLIC_PATHS } from '../src/content/routes';
import { articlesPage } from '../src/content/resources';
import { site } from '../src/content/site';
import { readArticleFiles } from './articles';
import { GUIDE_PDF_FILE, renderGuidePdf } from './guide-pdf';

const clientDir = process.argv[2];
if (!clientDir) throw new Error('usage: build-assets.ts <client dir>');
const publicUrl = (process.env.VITE_PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

type Generated = { path: string; body: string | Uint8Array };
type Generator = () => Promise<Generated[]> | Generated[];

const articles = readArticleFiles();

const sitemap: Generator = () => [
  {
    path: 'sitemap.xml',
    body:
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      [...PUBLIC_PATHS, ARTICLES_PAGE.path, ...articles.map((a) => articlePath(a.slug))]
        .map((p) => `  <url><loc>${publicUrl}${p}</loc></url>`)
        .join('\n') +
      '\n</urlset>\n',
  },
  { path: 'robots.txt', body: `User-agent: *\nAllow: /\n\nSitemap: ${publicUrl}/sitemap.xml\n` },
];

const guide: Generator = async () => [
  { path: GUIDE_PDF_FILE, body: await renderGuidePdf({ brand: site.brand, siteUrl: publicUrl }) },
];

/**
 * The Atom feed of the articles (/feed.xml, linked from every page's head by scripts/build.mjs),
 * newest first, each with its whole text. Dated by the newest article, so a build is reproducible.
 */
const feed: Generator = () => {
  const listUrl = `${publicUrl}${ARTICLES_PATH}`;
  const atom = new Feed({
    title: articlesPage.feedTitle,
    description: articlesPage.seo.description,
    id: listUrl,
    link: listUrl,
    language: 'en-GB',
    copyright: `© ${site.brand}`,
    updated: new Date(`${articles[0]?.date ?? '2025-01-01'}T00:00:00Z`),
    feedLinks: { atom: `${publicUrl}/feed.xml` },
    author: { name: site.brand, link: `${publicUrl}/` },
  });
  for (const article of articles) {
    const url = `${publicUrl}${articlePath(article.slug)}`;
    const date = new Date(`${article.date}T00:00:00Z`);
    atom.addItem({
      title: article.title,
      id: url,
      link: url,
      description: article.summary,
      content: article.html,
      date,
      published: date,
      author: [{ name: site.brand }],
    });
  }
  return [{ path: 'feed.xml', body: atom.atom1() }];
};

const generators: Generator[] = [sitemap, guide, feed];

for (const generate of generators) {
  for (const file of await generate()) {
    const target = join(clientDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.body);
  }
}

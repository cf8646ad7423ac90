/**
 * The site's files made from what it publishes: the sitemap and the articles' Atom feed. The
 * build writes them from the repository's articles (scripts/build-assets.ts); the server makes
 * them again from the published ones at each publication (decision 047).
 */
import { Feed } from 'feed';
import { ARTICLES_PATH, articlePath, type ArticleDoc } from '~/content/articles';
import type { PublishedMasterclass } from '~/content/published';
import { ARTICLES_PAGE, MASTERCLASSES_PAGE, PUBLIC_PATHS, masterclassPath } from '~/content/routes';
import { articlesPage } from '~/content/resources';
import { site } from '~/content/site';

/**
 * The sitemap: the public pages, the list of articles and each article, the list of masterclasses
 * and each one not cancelled.
 */
export function sitemapXml(
  publicUrl: string,
  articles: readonly Pick<ArticleDoc, 'slug'>[],
  masterclasses: readonly Pick<PublishedMasterclass, 'slug' | 'cancelled'>[] = [],
): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    [
      ...PUBLIC_PATHS,
      ARTICLES_PAGE.path,
      ...articles.map((a) => articlePath(a.slug)),
      MASTERCLASSES_PAGE.path,
      ...masterclasses.filter((m) => !m.cancelled).map((m) => masterclassPath(m.slug)),
    ]
      .map((p) => `  <url><loc>${publicUrl}${p}</loc></url>`)
      .join('\n') +
    '\n</urlset>\n'
  );
}

/**
 * The Atom feed of the articles (/feed.xml, linked from every page's head), newest first, each
 * with its whole text. Dated by the newest article, so the same articles make the same feed.
 */
export function atomFeed(publicUrl: string, articles: readonly ArticleDoc[]): string {
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
  return atom.atom1();
}

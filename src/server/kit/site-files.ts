/**
 * The site's files made from what it publishes: the sitemap, the articles' Atom feed and the
 * newsletter archive's. The build writes them from the repository's articles (scripts/build-assets.ts);
 * the server makes them again from what is published at each publication (decision 047).
 */
import { Feed } from 'feed';
import { ARTICLES_PATH, articlePath, type ArticleDoc } from '~/content/articles';
import { newsletterArchive } from '~/content/newsletter-archive';
import type { PublishedIssue, PublishedMasterclass } from '~/content/published';
import {
  ARTICLES_PAGE,
  MASTERCLASSES_PAGE,
  NEWSLETTER_ARCHIVE_PAGE,
  NEWSLETTER_FEED_PATH,
  PUBLIC_PATHS,
  masterclassPath,
  newsletterIssuePath,
} from '~/content/routes';
import { articlesPage } from '~/content/resources';
import { site } from '~/content/site';

/**
 * The sitemap: the public pages, the list of articles and each article, the list of masterclasses
 * and each one not cancelled, the newsletter's archive and each issue on it.
 */
export function sitemapXml(
  publicUrl: string,
  articles: readonly Pick<ArticleDoc, 'slug'>[],
  masterclasses: readonly Pick<PublishedMasterclass, 'slug' | 'cancelled'>[] = [],
  issues: readonly Pick<PublishedIssue, 'slug'>[] = [],
): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    [
      ...PUBLIC_PATHS,
      ARTICLES_PAGE.path,
      ...articles.map((a) => articlePath(a.slug)),
      MASTERCLASSES_PAGE.path,
      ...masterclasses.filter((m) => !m.cancelled).map((m) => masterclassPath(m.slug)),
      NEWSLETTER_ARCHIVE_PAGE.path,
      ...issues.map((i) => newsletterIssuePath(i.slug)),
    ]
      .map((p) => `  <url><loc>${publicUrl}${p}</loc></url>`)
      .join('\n') +
    '\n</urlset>\n'
  );
}

type FeedEntry = { title: string; path: string; summary: string; html: string; date: string };

/**
 * Plain text as the HTML the feed's text constructs hold: the library writes an entry's title and
 * summary as `type="html"`, so a title the owner typed with `<script>` in it would be markup to a
 * feed reader; escaped, it is read back as the same words.
 */
const asHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An Atom feed of entries (newest first), dated by the newest, so the same entries make the same feed. */
function atom(
  publicUrl: string,
  feed: { title: string; description: string; listPath: string; feedPath: string },
  entries: readonly FeedEntry[],
): string {
  const listUrl = `${publicUrl}${feed.listPath}`;
  const made = new Feed({
    title: feed.title,
    description: feed.description,
    id: listUrl,
    link: listUrl,
    language: 'en-GB',
    copyright: `© ${site.brand}`,
    updated: new Date(`${entries[0]?.date ?? '2025-01-01'}T00:00:00Z`),
    feedLinks: { atom: `${publicUrl}${feed.feedPath}` },
    author: { name: site.brand, link: `${publicUrl}/` },
  });
  for (const entry of entries) {
    const url = `${publicUrl}${entry.path}`;
    const date = new Date(`${entry.date}T00:00:00Z`);
    made.addItem({
      title: asHtml(entry.title),
      id: url,
      link: url,
      description: asHtml(entry.summary),
      content: entry.html,
      date,
      published: date,
      author: [{ name: site.brand }],
    });
  }
  return made.atom1();
}

/**
 * The Atom feed of the articles (/feed.xml, linked from every page's head), newest first, each
 * with its whole text.
 */
export function atomFeed(publicUrl: string, articles: readonly ArticleDoc[]): string {
  return atom(
    publicUrl,
    {
      title: articlesPage.feedTitle,
      description: articlesPage.seo.description,
      listPath: ARTICLES_PATH,
      feedPath: '/feed.xml',
    },
    articles.map((a) => ({
      title: a.title,
      path: articlePath(a.slug),
      summary: a.summary,
      html: a.html,
      date: a.date,
    })),
  );
}

/**
 * The Atom feed of the newsletter's archive (/newsletter/feed.xml, linked from its pages), newest
 * first, each issue with its whole text.
 */
export function newsletterFeed(publicUrl: string, issues: readonly PublishedIssue[]): string {
  return atom(
    publicUrl,
    {
      title: newsletterArchive.feedTitle,
      description: newsletterArchive.seo.description,
      listPath: NEWSLETTER_ARCHIVE_PAGE.path,
      feedPath: NEWSLETTER_FEED_PATH,
    },
    issues.map((i) => ({
      title: i.subject,
      path: newsletterIssuePath(i.slug),
      summary: i.preheader,
      html: i.html,
      date: i.date,
    })),
  );
}

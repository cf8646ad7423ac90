/**
 * The articles: `/resources/articles`, the list of all of them newest first, and
 * `/resources/articles/<slug>`, one article. One route (a splat) serves both, so the route
 * manifest every page loads grows by one entry (decision 022). The build prerenders the
 * repository's articles; the server renders the published ones again with this route at each
 * publication (decision 047), its loader then reading them from the context.
 */
import { data } from 'react-router';
import type { Route } from './+types/articles';
import { ARTICLES } from '~/app/articles.server';
import { publishedContext } from '~/app/published';
import { ARTICLES_PATH, articlePath, type ArticleCover } from '~/content/articles';
import { COVER_SIZES, coverSources } from '~/content/article-cover';
import { metaOf } from '~/content/articles.server';
import { articlesPage } from '~/content/resources';
import { founder } from '~/content/about';
import { articlePage } from '~/content/article-page';
import { site } from '~/content/site';
import { formatLongDate } from '~/lib/uk-dates';
import { BackLink } from '~/components/sections/back-link';
import { PageHero } from '~/components/sections/page-hero';
import { absoluteUrl, pageMeta } from '~/lib/seo';

/** Up to two capitals of a name, for the tile shown where there is no photo. */
function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

/** How many other articles an article offers at its end. */
const RELATED_COUNT = 3;

export function loader({ params, context }: Route.LoaderArgs) {
  const articles = context.get(publishedContext)?.articles ?? ARTICLES;
  const slug = params['*'] ?? '';
  if (slug === '') return { kind: 'list' as const, list: articles.map(metaOf) };
  const article = articles.find((a) => a.slug === slug);
  if (!article) throw data(null, { status: 404 });
  // The newest others: what a reader at the end of one article is offered next.
  const related = articles
    .filter((a) => a.slug !== slug)
    .slice(0, RELATED_COUNT)
    .map(metaOf);
  // The author's name, role and initials travel in the page's data: the route's code imports no
  // About page words, which would make a chunk shared with the About page (decision 006).
  // The founder as the owner set them in Business details, with their photo; the build's until then.
  const set = context.get(publishedContext)?.business?.founder;
  const author = set?.name
    ? { name: set.name, role: founder.role, initials: initialsOf(set.name), photo: set.photo }
    : { name: founder.name, role: founder.role, initials: founder.initials, photo: null };
  return { kind: 'article' as const, article, related, author };
}

export const meta = ({ loaderData }: Route.MetaArgs) => {
  if (!loaderData) return [];
  if (loaderData.kind === 'list') return pageMeta({ path: ARTICLES_PATH, ...articlesPage.seo });
  const { article, author } = loaderData;
  const path = articlePath(article.slug);
  // The cover's widest JPEG is what a shared link shows, and the article's image for search engines.
  const cover = article.cover ? { path: coverSources(article.cover).shared, ...article.cover } : null;
  return pageMeta({
    path,
    title: article.title,
    description: article.summary,
    ...(cover ? { image: cover } : {}),
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: article.title,
        description: article.summary,
        datePublished: article.date,
        dateModified: article.date,
        wordCount: article.words,
        inLanguage: 'en-GB',
        mainEntityOfPage: absoluteUrl(path),
        url: absoluteUrl(path),
        image: absoluteUrl(cover ? cover.path : '/og-image.png'),
        author: { '@type': 'Person', name: author.name, jobTitle: author.role, url: absoluteUrl('/about') },
        publisher: { '@type': 'Organization', name: site.brand, url: absoluteUrl('/') },
      },
    ],
  });
};

/**
 * The article's cover (decision 050): AVIF, then WebP, then the JPEG, each in its widths for the
 * column's width. It is the page's largest paint: asked for first, never lazily, and its size
 * given so that nothing moves when it arrives.
 */
function Cover({ cover }: { cover: ArticleCover }) {
  const sources = coverSources(cover);
  return (
    <picture>
      <source type="image/avif" srcSet={sources.avif} sizes={COVER_SIZES} />
      <source type="image/webp" srcSet={sources.webp} sizes={COVER_SIZES} />
      <img
        src={sources.src}
        srcSet={sources.jpeg}
        sizes={COVER_SIZES}
        width={cover.width}
        height={cover.height}
        alt={cover.alt}
        fetchPriority="high"
        className="mb-10 h-auto w-full rounded-2xl bg-ink-50"
      />
    </picture>
  );
}

export default function Articles({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'list') {
    return (
      <>
        <PageHero eyebrow={articlesPage.eyebrow} title={articlesPage.title} intro={articlesPage.intro} />
        <div className="mx-auto max-w-6xl px-4 pb-20">
          {/* The archive: one article a row, newest first (the Resources page shows the newest as cards). */}
          <ol className="grid gap-6">
            {loaderData.list.map((article) => (
              <li key={article.slug}>
                <article className="card">
                  <p className="flex flex-wrap gap-x-3 text-sm text-ink-600">
                    <time dateTime={article.date}>{formatLongDate(article.date)}</time>
                    <span aria-hidden="true">·</span>
                    <span>{article.readingMinutes} min read</span>
                  </p>
                  <h2 className="mt-2 text-xl font-semibold text-ink-900">
                    <a href={articlePath(article.slug)} className="hover:text-brand-800 hover:underline">
                      {article.title}
                    </a>
                  </h2>
                  <p className="mt-2 leading-relaxed text-ink-700">{article.summary}</p>
                </article>
              </li>
            ))}
          </ol>
        </div>
      </>
    );
  }
  const { article, related, author } = loaderData;
  return (
    <>
      <PageHero
        width="prose"
        eyebrow={articlesPage.articleEyebrow}
        title={article.title}
        intro={article.summary}
      >
        <div className="mt-6 flex items-center gap-3">
          {author.photo ? (
            // The name beside it says who it is.
            <img
              src={author.photo}
              alt=""
              width={44}
              height={44}
              className="size-11 shrink-0 rounded-full object-cover"
            />
          ) : (
            <span
              aria-hidden="true"
              className="grid size-11 shrink-0 place-items-center rounded-full bg-brand-700 text-sm font-bold text-white"
            >
              {author.initials}
            </span>
          )}
          <div className="text-sm">
            <p className="font-semibold text-ink-900">
              {author.name}, <span className="font-normal text-ink-700">{author.role}</span>
            </p>
            <p className="flex flex-wrap gap-x-3 text-ink-600">
              <time dateTime={article.date}>{formatLongDate(article.date)}</time>
              <span aria-hidden="true">·</span>
              <span>{article.readingMinutes} min read</span>
              {article.taxYear ? (
                <>
                  <span aria-hidden="true">·</span>
                  <span>{articlePage.taxYearLabel(article.taxYear)}</span>
                </>
              ) : null}
            </p>
          </div>
        </div>
      </PageHero>
      <div className="mx-auto max-w-3xl px-4 pb-20">
        {article.cover ? <Cover cover={article.cover} /> : null}
        <p className="rounded-xl border border-ink-100 bg-ink-50 p-4 text-sm leading-relaxed text-ink-700">
          {site.disclaimer}
        </p>
        <div
          // About 70 characters a line: the measure long text reads best at.
          className="article-body mt-10 max-w-[68ch]"
          // Rendered by the server: the repository's own Markdown at build time, the owner's with
          // every raw HTML tag shown as text at publish time (decision 047).
          dangerouslySetInnerHTML={{ __html: article.html }}
        />
        <aside
          aria-labelledby="article-closing"
          className="mt-14 rounded-2xl border border-ink-100 bg-ink-50 p-6"
        >
          <h2 id="article-closing" className="text-xl font-semibold text-ink-900">
            {articlePage.closing.title}
          </h2>
          <p className="mt-2 leading-relaxed text-ink-700">{articlePage.closing.text}</p>
          <p className="mt-5 flex flex-wrap gap-3">
            <a href={articlePage.closing.primary.to} className="btn btn-primary">
              {articlePage.closing.primary.label}
            </a>
            <a href={articlePage.closing.secondary.to} className="btn btn-secondary">
              {articlePage.closing.secondary.label}
            </a>
          </p>
        </aside>
        {related.length > 0 ? (
          <nav aria-labelledby="related-articles" className="mt-14">
            <h2 id="related-articles" className="text-xl font-semibold text-ink-900">
              {articlePage.relatedTitle}
            </h2>
            <ul className="mt-4 grid gap-4">
              {related.map((other) => (
                <li key={other.slug}>
                  <a
                    href={articlePath(other.slug)}
                    className="font-semibold text-brand-700 hover:text-brand-800 hover:underline"
                  >
                    {other.title}
                  </a>
                  <p className="text-sm text-ink-600">
                    <time dateTime={other.date}>{formatLongDate(other.date)}</time>
                  </p>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <p className="mt-12">
          <BackLink href={ARTICLES_PATH} label={articlesPage.backLabel} />
        </p>
      </div>
    </>
  );
}

/**
 * The newsletter's archive (issue #26): `/newsletter`, the issues the owner put on the site,
 * newest first, and `/newsletter/<slug>`, one issue as it was sent (its own text: no reader's
 * personal link is ever part of it). One route (a splat) serves both. The build prerenders the
 * list with none; the server renders the list and each issue again at each publication (decision
 * 047), its loader then reading them from the context.
 */
import { data } from 'react-router';
import type { Route } from './+types/newsletter-archive';
import { publishedContext } from '~/app/published';
import { newsletterArchive as copy } from '~/content/newsletter-archive';
import { NEWSLETTER_ARCHIVE_PAGE, NEWSLETTER_FEED_PATH, newsletterIssuePath } from '~/content/routes';
import { site } from '~/content/site';
import { BackLink } from '~/components/sections/back-link';
import { PageHero } from '~/components/sections/page-hero';
import { formatLongDate } from '~/lib/uk-dates';
import { absoluteUrl, pageMeta } from '~/lib/seo';

export function loader({ params, context }: Route.LoaderArgs) {
  const issues = context.get(publishedContext)?.newsletter ?? [];
  const slug = params['*'] ?? '';
  if (slug === '') {
    return { kind: 'list' as const, list: issues.map(({ slug, subject, preheader, date }) => ({ slug, subject, preheader, date })) };
  }
  const issue = issues.find((i) => i.slug === slug);
  if (!issue) throw data(null, { status: 404 });
  return { kind: 'issue' as const, issue };
}

/** Every archive page names the archive's Atom feed. */
const feedLink = {
  tagName: 'link',
  rel: 'alternate',
  type: 'application/atom+xml',
  title: copy.feedTitle,
  href: NEWSLETTER_FEED_PATH,
} as const;

export const meta = ({ loaderData }: Route.MetaArgs) => {
  if (!loaderData) return [];
  if (loaderData.kind === 'list') return [...pageMeta({ path: NEWSLETTER_ARCHIVE_PAGE.path, ...copy.seo }), feedLink];
  const { issue } = loaderData;
  const path = newsletterIssuePath(issue.slug);
  const description = issue.preheader || copy.seo.description;
  return [
    ...pageMeta({
      path,
      title: issue.subject,
      description,
      jsonLd: [
        {
          '@context': 'https://schema.org',
          '@type': 'Article',
          headline: issue.subject,
          description,
          datePublished: issue.date,
          inLanguage: 'en-GB',
          isPartOf: { '@type': 'Periodical', name: copy.feedTitle, url: absoluteUrl(NEWSLETTER_ARCHIVE_PAGE.path) },
          mainEntityOfPage: absoluteUrl(path),
          url: absoluteUrl(path),
          image: absoluteUrl('/og-image.png'),
          publisher: { '@type': 'Organization', name: site.brand, url: absoluteUrl('/') },
        },
      ],
    }),
    feedLink,
  ];
};

function Closing() {
  return (
    <aside aria-labelledby="newsletter-closing" className="mt-14 rounded-2xl border border-ink-100 bg-ink-50 p-6">
      <h2 id="newsletter-closing" className="text-xl font-semibold text-ink-900">
        {copy.closing.title}
      </h2>
      <p className="mt-2 leading-relaxed text-ink-700">{copy.closing.text}</p>
      <p className="mt-5">
        <a href={copy.closing.action.to} className="btn btn-primary">
          {copy.closing.action.label}
        </a>
      </p>
    </aside>
  );
}

export default function NewsletterArchive({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'list') {
    return (
      <>
        <PageHero eyebrow={copy.eyebrow} title={copy.title} intro={copy.intro} />
        <div className="mx-auto max-w-6xl px-4 pb-20">
          {loaderData.list.length === 0 ? (
            <p className="max-w-3xl leading-relaxed text-ink-700">{copy.none}</p>
          ) : (
            <ol className="grid gap-6">
              {loaderData.list.map((issue) => (
                <li key={issue.slug}>
                  <article className="card">
                    <p className="text-sm text-ink-600">
                      {copy.sentLabel} <time dateTime={issue.date}>{formatLongDate(issue.date)}</time>
                    </p>
                    <h2 className="mt-2 text-xl font-semibold text-ink-900">
                      <a href={newsletterIssuePath(issue.slug)} className="hover:text-brand-800 hover:underline">
                        {issue.subject}
                      </a>
                    </h2>
                    {issue.preheader ? <p className="mt-2 leading-relaxed text-ink-700">{issue.preheader}</p> : null}
                  </article>
                </li>
              ))}
            </ol>
          )}
          <div className="max-w-3xl">
            <Closing />
          </div>
        </div>
      </>
    );
  }
  const { issue } = loaderData;
  return (
    <>
      <PageHero width="prose" eyebrow={copy.eyebrow} title={issue.subject} intro={issue.preheader || undefined}>
        <p className="mt-6 text-sm text-ink-600">
          {copy.sentLabel} <time dateTime={issue.date}>{formatLongDate(issue.date)}</time>
        </p>
      </PageHero>
      <div className="mx-auto max-w-3xl px-4 pb-20">
        <div
          // About 70 characters a line, as an article.
          className="article-body max-w-[68ch]"
          // Rendered by the server at publication: the owner's Markdown with every raw HTML tag
          // shown as text (decision 047); the e-mail's personal footer is never part of it.
          dangerouslySetInnerHTML={{ __html: issue.html }}
        />
        <Closing />
        <p className="mt-12">
          <BackLink href={NEWSLETTER_ARCHIVE_PAGE.path} label={copy.backLabel} />
        </p>
      </div>
    </>
  );
}

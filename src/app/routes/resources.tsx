import { ArrowRight, BookOpen, CircleCheck } from 'lucide-react';
import type { Route } from './+types/resources';
import { ARTICLES } from '~/app/articles.server';
import { publishedContext } from '~/app/published';
import { masterclassesPage } from '~/content/masterclasses';
import { MASTERCLASSES_PAGE, NEWSLETTER_ARCHIVE_PAGE } from '~/content/routes';
import { newsletterArchive } from '~/content/newsletter-archive';
import { metaOf } from '~/content/articles.server';
import {
  articlesSection,
  downloadKit,
  featuredResource,
  newsletter,
  resourcesHero,
  resourcesSeo,
} from '~/content/resources';
import { ArticleList } from '~/components/sections/article-list';
import { PageHero } from '~/components/sections/page-hero';
import { SectionHeader } from '~/components/sections/section-header';
import { MasterclassCard } from '~/features/events/masterclass-card';
import { NextEventProvider } from '~/features/events/next-event';
import { RegistrationSection } from '~/features/events/registration-section';
import { GuideSection } from '~/features/guide/guide-section';
import { NewsletterForm } from '~/features/newsletter/newsletter-form';
import { pageMeta } from '~/lib/seo';

// The masterclass's Event structured data is written by its card, from the real next event
// (none without one): the page is prerendered, the events are not.
export const meta = () => pageMeta({ path: '/resources', ...resourcesSeo });

/**
 * The newest articles: the build's from the repository's files, the server's from what is
 * published, rendered again at each publication (decision 047).
 */
export function loader({ context }: Route.LoaderArgs) {
  const published = context.get(publishedContext);
  const articles = published?.articles ?? ARTICLES;
  // The card shows the next masterclass; with more than one to come, a link leads to them all.
  // Its words travel in the page's data: the route imports nothing of the masterclasses' pages.
  const now = Date.now();
  const upcoming = (published?.masterclasses ?? []).filter((m) => !m.cancelled && Date.parse(m.endsAt) > now);
  return {
    articles: articles.slice(0, articlesSection.count).map(metaOf),
    allMasterclasses:
      upcoming.length > 1
        ? { href: MASTERCLASSES_PAGE.path, label: masterclassesPage.allUpcoming(upcoming.length) }
        : null,
    // The newsletter's archive, once an issue is on it.
    pastIssues:
      (published?.newsletter?.length ?? 0) > 0
        ? { href: NEWSLETTER_ARCHIVE_PAGE.path, label: newsletterArchive.resourcesLink }
        : null,
  };
}

export default function Resources({ loaderData }: Route.ComponentProps) {
  return (
    <NextEventProvider>
      <PageHero eyebrow={resourcesHero.eyebrow} title={resourcesHero.title} intro={resourcesHero.intro} />

      <div className="mx-auto grid max-w-6xl gap-8 px-4 lg:grid-cols-2">
        <article
          aria-labelledby="featured-title"
          className="card flex flex-col border-brand-200 bg-brand-50 sm:p-8"
        >
          <div className="flex items-start justify-between gap-4">
            <p className="eyebrow">{featuredResource.eyebrow}</p>
            <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
              <BookOpen aria-hidden="true" className="size-6" />
            </span>
          </div>
          <h2 id="featured-title" className="mt-1 text-2xl font-bold text-ink-900">
            {featuredResource.title}
          </h2>
          <p className="mt-3 leading-relaxed text-ink-700">{featuredResource.text}</p>
          <ul className="mt-5 grid gap-2">
            {featuredResource.highlights.map((item) => (
              <li key={item} className="flex gap-3 text-ink-800">
                <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success-700" />
                {item}
              </li>
            ))}
          </ul>
          <ul className="mt-5 flex flex-wrap gap-2 text-sm" aria-label="Format">
            {featuredResource.facts.map((fact) => (
              <li
                key={fact}
                className="rounded-full bg-white px-3 py-1 font-medium text-ink-800 ring-1 ring-ink-200"
              >
                {fact}
              </li>
            ))}
          </ul>
          <div className="mt-auto pt-6">
            <a href={featuredResource.cta.href} className="btn btn-primary w-full sm:w-auto">
              {featuredResource.cta.label}
            </a>
          </div>
        </article>
        <MasterclassCard titleId="masterclass-title" />
      </div>
      {loaderData.allMasterclasses ? (
        <p className="mx-auto mt-4 max-w-6xl px-4 text-right">
          <a
            href={loaderData.allMasterclasses.href}
            className="font-semibold text-brand-700 hover:text-brand-800 hover:underline"
          >
            {loaderData.allMasterclasses.label}
          </a>
        </p>
      ) : null}

      <section aria-labelledby="articles-title" className="section">
        <div className="flex flex-col justify-between gap-4 sm:flex-row sm:items-end">
          <SectionHeader
            id="articles-title"
            align="left"
            title={articlesSection.title}
            intro={articlesSection.intro}
          />
          <a
            href={articlesSection.viewAll.href}
            className="inline-flex shrink-0 items-center gap-1.5 self-start rounded font-semibold text-brand-700 hover:text-brand-800 hover:underline sm:self-auto"
          >
            {articlesSection.viewAll.label}
            <span className="sr-only">{articlesSection.viewAll.srSuffix}</span>
            <ArrowRight aria-hidden="true" className="size-4" />
          </a>
        </div>
        <ArticleList
          articles={loaderData.articles}
          readLabel={articlesSection.readLabel}
          arrow={<ArrowRight aria-hidden="true" className="size-4" />}
        />
      </section>

      <GuideSection
        id="download-kit"
        titleId="download-kit-title"
        copy={downloadKit}
        className="bg-ink-50"
        gridClassName="section grid gap-10 lg:grid-cols-2 lg:gap-16"
      />

      <RegistrationSection />

      <section id="newsletter" aria-labelledby="newsletter-title" className="section">
        <div className="cta-surface grid gap-10 rounded-3xl p-6 sm:p-10 lg:grid-cols-2 lg:gap-16">
          <div>
            <SectionHeader
              id="newsletter-title"
              align="left"
              tone="dark"
              eyebrow={newsletter.eyebrow}
              title={newsletter.title}
              intro={newsletter.intro}
            />
            {loaderData.pastIssues ? (
              <p className="mt-6">
                <a
                  href={loaderData.pastIssues.href}
                  className="inline-flex items-center gap-1.5 rounded font-semibold text-white underline underline-offset-4 hover:no-underline"
                >
                  {loaderData.pastIssues.label}
                  <ArrowRight aria-hidden="true" className="size-4" />
                </a>
              </p>
            ) : null}
          </div>
          <div className="rounded-2xl bg-white p-6 text-ink-900">
            <NewsletterForm />
          </div>
        </div>
      </section>
    </NextEventProvider>
  );
}

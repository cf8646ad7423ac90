/**
 * The masterclasses (issue #25, decision 047): `/masterclasses`, the upcoming ones and the past
 * ones below (without registration), and `/masterclasses/<slug>`, one with its details, its
 * places left, its registration form and its calendar file. One route (a splat) serves both. The
 * build prerenders the list with none; the server renders the list and each page again whenever
 * the owner publishes or changes a masterclass, its loader then reading them from the context.
 * What changes with every registration (places left, whether registration is open) is asked
 * after hydration, as on the Resources page.
 */
import { data } from 'react-router';
import type { Route } from './+types/masterclasses';
import { publishedContext } from '~/app/published';
import { masterclassesPage as copy } from '~/content/masterclasses';
import type { PublishedMasterclass } from '~/content/published';
import { MASTERCLASSES_PAGE, masterclassPath } from '~/content/routes';
import { BackLink } from '~/components/sections/back-link';
import { PageHero } from '~/components/sections/page-hero';
import { eventJsonLd } from '~/features/events/event-json-ld';
import { eventApiPath } from '~/features/events/events-api';
import { ukDayLabel, ukTimeRange } from '~/features/events/event-times';
import { MasterclassCard } from '~/features/events/masterclass-card';
import { NextEventProvider } from '~/features/events/next-event';
import { RegistrationSection } from '~/features/events/registration-section';
import { pageMeta } from '~/lib/seo';

export function loader({ params, context }: Route.LoaderArgs) {
  const all = context.get(publishedContext)?.masterclasses ?? [];
  const slug = params['*'] ?? '';
  if (slug === '') {
    // Rendered at publication: what is past is decided then, and again at the next publication.
    const now = Date.now();
    return {
      kind: 'list' as const,
      upcoming: all.filter((m) => Date.parse(m.endsAt) > now),
      past: all.filter((m) => Date.parse(m.endsAt) <= now).reverse(),
    };
  }
  const masterclass = all.find((m) => m.slug === slug);
  if (!masterclass) throw data(null, { status: 404 });
  return { kind: 'masterclass' as const, masterclass };
}

export const meta = ({ loaderData }: Route.MetaArgs) => {
  if (!loaderData) return [];
  if (loaderData.kind === 'list') return pageMeta({ path: MASTERCLASSES_PAGE.path, ...copy.seo });
  const { masterclass } = loaderData;
  return pageMeta({
    path: masterclassPath(masterclass.slug),
    title: masterclass.title,
    description: masterclass.summary,
    // Its places are not known when it is rendered: asked after hydration.
    jsonLd: [eventJsonLd(masterclass, masterclassPath(masterclass.slug))],
  });
};

function When({ m }: { m: PublishedMasterclass }) {
  const starts = new Date(m.startsAt);
  return (
    <time dateTime={m.startsAt}>
      {ukDayLabel(starts)}, {ukTimeRange(starts, new Date(m.endsAt))}
    </time>
  );
}

function Line({ m, past }: { m: PublishedMasterclass; past: boolean }) {
  return (
    <li>
      <article className="card">
        <p className="flex flex-wrap gap-x-3 text-sm text-ink-600">
          <When m={m} />
          <span aria-hidden="true">·</span>
          <span>{m.mode === 'online' ? copy.online : m.place}</span>
          {m.cancelled ? (
            <>
              <span aria-hidden="true">·</span>
              <span className="font-semibold text-ink-800">{copy.cancelled}</span>
            </>
          ) : null}
        </p>
        <h3 className="mt-2 text-xl font-semibold text-ink-900">
          {past ? (
            m.title
          ) : (
            <a href={masterclassPath(m.slug)} className="hover:text-brand-800 hover:underline">
              {m.title}
            </a>
          )}
        </h3>
        <p className="mt-2 leading-relaxed text-ink-700">{m.summary}</p>
      </article>
    </li>
  );
}

export default function Masterclasses({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'list') {
    const { upcoming, past } = loaderData;
    return (
      <>
        <PageHero eyebrow={copy.eyebrow} title={copy.title} intro={copy.intro} />
        <div className="mx-auto grid max-w-6xl gap-14 px-4 pb-20">
          <section aria-labelledby="upcoming-title">
            <h2 id="upcoming-title" className="text-2xl font-bold text-ink-900">
              {copy.upcomingTitle}
            </h2>
            {upcoming.length === 0 ? (
              <p className="mt-4 max-w-3xl leading-relaxed text-ink-700">
                {copy.none}{' '}
                <a href={copy.noneLink.href} className="font-semibold text-brand-700 hover:underline">
                  {copy.noneLink.label}
                </a>
              </p>
            ) : (
              <ol className="mt-6 grid gap-6">
                {upcoming.map((m) => (
                  <Line key={m.id} m={m} past={false} />
                ))}
              </ol>
            )}
          </section>
          {past.length > 0 ? (
            <section aria-labelledby="past-title">
              <h2 id="past-title" className="text-2xl font-bold text-ink-900">
                {copy.pastTitle}
              </h2>
              <ol className="mt-6 grid gap-6">
                {past.map((m) => (
                  <Line key={m.id} m={m} past />
                ))}
              </ol>
            </section>
          ) : null}
        </div>
      </>
    );
  }
  const { masterclass } = loaderData;
  return (
    <NextEventProvider api={eventApiPath(masterclass.id)}>
      <PageHero width="prose" eyebrow={copy.eventEyebrow} title={masterclass.title} intro={masterclass.summary} />
      <div className="mx-auto max-w-3xl px-4 pb-10">
        {/* Filled after hydration: its places left, registration and calendar file. */}
        <MasterclassCard titleId="masterclass-title" structuredData={false} newsletterHref={copy.noneLink.href} />
      </div>
      <RegistrationSection />
      <p className="mx-auto max-w-3xl px-4 pb-20">
        <BackLink href={MASTERCLASSES_PAGE.path} label={copy.backLabel} />
      </p>
    </NextEventProvider>
  );
}


import { ArrowRight, Bot, Check, Clock, Compass, GraduationCap, Mail, Users, Video } from 'lucide-react';
import { Link, useRouteLoaderData } from 'react-router';
import {
  guideSection,
  homeCta,
  homeHero,
  homeSeo,
  pillars,
  pillarsSection,
  planCards,
  plansSection,
  realityCheck,
  testimonialsSection,
} from '~/content/home';
import type { BusinessDetails } from '~/content/business';
import { sessionCard } from '~/content/session';
import { site } from '~/content/site';
import { CtaBanner } from '~/components/sections/cta-banner';
import { FeatureGrid } from '~/components/sections/feature-grid';
import { PageHero } from '~/components/sections/page-hero';
import { PlanCard } from '~/components/sections/plan-card';
import { SectionHeader } from '~/components/sections/section-header';
import { TestimonialCard } from '~/components/sections/testimonial-card';
import { ActionLink } from '~/components/ui/action-link';
import { Icon, type IconSet } from '~/components/ui/icon';
import { GuideSection } from '~/features/guide/guide-section';
import { absoluteUrl, pageMeta } from '~/lib/seo';

type RootData = { business: BusinessDetails | null } | undefined;

/** The business as search engines read it: its contact details only once the owner has set them. */
export const meta = ({ matches }: { matches: readonly ({ loaderData?: unknown } | undefined)[] }) => {
  const business = (matches[0]?.loaderData as RootData)?.business;
  return pageMeta({
    path: '/',
    ...homeSeo,
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'Organization',
        name: site.brand,
        url: absoluteUrl('/'),
        logo: absoluteUrl('/favicon.svg'),
        description: site.tagline,
        ...(business && {
          legalName: business.name,
          email: business.email,
          ...(business.phone && { telephone: business.phone }),
          address: {
            '@type': 'PostalAddress',
            streetAddress: business.address.slice(0, -1).join(', '),
            postalCode: business.address.at(-1),
            addressCountry: 'GB',
          },
        }),
      },
    ],
  });
};

const FACT_ICONS: IconSet<(typeof sessionCard.facts)[number]['icon']> = {
  clock: Clock,
  video: Video,
  mail: Mail,
};
const PILLAR_ICONS: IconSet<(typeof pillars)[number]['icon']> = {
  'graduation-cap': GraduationCap,
  compass: Compass,
  bot: Bot,
};
const PLAN_ICONS: IconSet<(typeof planCards)[number]['icon']> = { video: Video, bot: Bot, users: Users };

function SessionPreview() {
  return (
    <div className="card relative hidden p-8 shadow-xl lg:block">
      <div className="flex items-center justify-between">
        <p className="text-lg font-semibold text-ink-900">{sessionCard.title}</p>
        <span className="rounded-full bg-success-100 px-3 py-1 text-sm font-semibold text-success-800">
          {sessionCard.badge}
        </span>
      </div>
      <p className="mt-3 leading-relaxed text-ink-700">{sessionCard.text}</p>
      <ul className="mt-6 grid gap-3">
        {sessionCard.facts.map((fact) => (
          <li key={fact.label} className="flex items-center gap-3 text-ink-800">
            <span className="inline-flex size-9 items-center justify-center rounded-lg bg-brand-100 text-brand-800">
              <Icon icon={FACT_ICONS[fact.icon]} className="size-5" />
            </span>
            {fact.label}
          </li>
        ))}
      </ul>
      <Link to="/book" className="text-link mt-8">
        See available formats <ArrowRight aria-hidden="true" className="size-4" />
      </Link>
    </div>
  );
}

export default function Home() {
  // Real clients' words with their permission recorded (Business details); none: no section.
  const testimonials = useRouteLoaderData<RootData & object>('root')?.business?.testimonials ?? [];
  return (
    <>
      <PageHero
        eyebrow={homeHero.eyebrow}
        title={homeHero.title}
        intro={homeHero.intro}
        aside={<SessionPreview />}
      >
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <ActionLink to={homeHero.primary.to}>{homeHero.primary.label}</ActionLink>
          <ActionLink to={homeHero.secondary.to} variant="secondary">
            {homeHero.secondary.label}
          </ActionLink>
        </div>
        <ul className="mt-8 flex flex-wrap gap-x-6 gap-y-2 text-sm text-ink-700">
          {homeHero.assurances.map((item) => (
            <li key={item} className="flex items-center gap-2">
              <Check aria-hidden="true" className="size-4 text-success-700" />
              {item}
            </li>
          ))}
        </ul>
      </PageHero>

      <section aria-labelledby="reality-title" className="section">
        <div className="grid items-center gap-12 lg:grid-cols-2">
          <div>
            <SectionHeader
              id="reality-title"
              align="left"
              eyebrow={realityCheck.eyebrow}
              title={realityCheck.title}
              intro={realityCheck.intro}
            />
            <p className="mt-6 leading-relaxed text-ink-700">{realityCheck.conclusion}</p>
          </div>
          <div className="rounded-3xl bg-ink-900 p-6 text-white shadow-xl sm:p-8">
            <dl className="grid gap-4">
              {realityCheck.rows.map((row) => (
                <div key={row.label} className="rounded-2xl bg-white/5 p-5 ring-1 ring-white/10">
                  <dt className="text-sm font-semibold tracking-wide text-ink-200 uppercase">{row.label}</dt>
                  <dd className="mt-1 text-3xl font-bold tabular-nums sm:text-4xl">{row.value}</dd>
                  <dd className="mt-1 text-sm text-ink-200">{row.note}</dd>
                </div>
              ))}
              <div className="rounded-2xl bg-brand-700 p-5">
                <dt className="text-sm font-semibold tracking-wide text-white uppercase">
                  {realityCheck.result.label}
                </dt>
                <dd className="mt-1 text-3xl font-bold tabular-nums sm:text-4xl">
                  {realityCheck.result.value}
                </dd>
                <dd className="mt-1 text-sm text-white">{realityCheck.result.note}</dd>
              </div>
            </dl>
          </div>
        </div>
      </section>

      <section aria-labelledby="pillars-title" className="bg-ink-50">
        <div className="section">
          <SectionHeader
            id="pillars-title"
            eyebrow={pillarsSection.eyebrow}
            title={pillarsSection.title}
            intro={pillarsSection.intro}
          />
          <FeatureGrid items={pillars} icons={PILLAR_ICONS} />
        </div>
      </section>

      {testimonials.length > 0 && (
        <section aria-labelledby="testimonials-title" className="section">
          <SectionHeader
            id="testimonials-title"
            eyebrow={testimonialsSection.eyebrow}
            title={testimonialsSection.title}
          />
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {testimonials.map((t) => (
              <li key={t.author + t.quote}>
                <TestimonialCard testimonial={{ ...t, title: [t.role, t.city].filter(Boolean).join(', ') }} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="plans-title" className="bg-ink-50">
        <div className="section">
          <SectionHeader
            id="plans-title"
            eyebrow={plansSection.eyebrow}
            title={plansSection.title}
            intro={plansSection.intro}
          />
          <ul className="mt-14 grid gap-8 md:grid-cols-3">
            {planCards.map((plan) => (
              <li key={plan.title}>
                <PlanCard plan={plan} icon={PLAN_ICONS[plan.icon]} badge="Most popular" />
              </li>
            ))}
          </ul>
          <p className="mt-10 text-center">
            <Link to={plansSection.allServices.to} className="text-link">
              {plansSection.allServices.label} <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          </p>
        </div>
      </section>

      <GuideSection
        titleId="guide-title"
        copy={guideSection}
        className="section"
        gridClassName="grid gap-10 rounded-3xl border border-brand-200 bg-brand-50 p-6 sm:p-10 lg:grid-cols-2 lg:gap-16"
      />

      <CtaBanner {...homeCta} />
    </>
  );
}

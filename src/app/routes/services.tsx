import { Bot, Users, Video } from 'lucide-react';
import { circle, offers, servicesCta, servicesHero, servicesSeo } from '~/content/services';
import { CtaBanner } from '~/components/sections/cta-banner';
import { PageHero } from '~/components/sections/page-hero';
import { PlanCard } from '~/components/sections/plan-card';
import type { IconSet } from '~/components/ui/icon';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/services', ...servicesSeo });

const OFFER_ICONS: IconSet<(typeof offers)[number]['icon']> = { video: Video, bot: Bot, users: Users };

export default function Services() {
  return (
    <>
      <PageHero eyebrow={servicesHero.eyebrow} title={servicesHero.title} intro={servicesHero.intro} />

      <section aria-labelledby="offers-title" className="section pt-4 md:pt-8">
        <h2 id="offers-title" className="sr-only">
          {servicesHero.offersTitle}
        </h2>
        <ul className="grid gap-8 md:grid-cols-3">
          {offers.map((offer) => (
            <li key={offer.title}>
              <PlanCard plan={offer} icon={OFFER_ICONS[offer.icon]} badge="Start here" />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="circle-title" className="px-4 pb-16 md:pb-24">
        <div className="mx-auto flex max-w-6xl flex-col gap-6 rounded-3xl border border-ink-100 bg-ink-50 p-6 sm:p-10 md:flex-row md:items-center">
          <span className="inline-flex size-14 shrink-0 items-center justify-center rounded-2xl bg-ink-900 text-white">
            <Users aria-hidden="true" className="size-7" />
          </span>
          <div className="flex-1">
            <p className="eyebrow">{circle.eyebrow}</p>
            <h2 id="circle-title" className="mt-1 text-2xl font-bold text-ink-900">
              {circle.title}
            </h2>
            <p className="mt-2 max-w-3xl leading-relaxed text-ink-700">{circle.text}</p>
          </div>
          <p className="shrink-0 rounded-full border border-ink-300 bg-white px-4 py-2 text-sm font-semibold text-ink-900">
            {circle.price}
          </p>
        </div>
      </section>

      <CtaBanner {...servicesCta} />
    </>
  );
}

import { Award, Briefcase, Lightbulb, ShieldCheck, TrendingUp, Users } from 'lucide-react';
import { aboutCta, aboutHero, aboutSeo, credentials, founder, mission, values } from '~/content/about';
import { CtaBanner } from '~/components/sections/cta-banner';
import { FeatureGrid } from '~/components/sections/feature-grid';
import { PageHero } from '~/components/sections/page-hero';
import { SectionHeader } from '~/components/sections/section-header';
import type { IconSet } from '~/components/ui/icon';
import { pageMeta } from '~/lib/seo';
import { useRouteLoaderData } from 'react-router';
import type { BusinessDetails } from '~/content/business';

export const meta = () => pageMeta({ path: '/about', ...aboutSeo });

const CREDENTIAL_ICONS: IconSet<(typeof credentials.items)[number]['icon']> = {
  briefcase: Briefcase,
  award: Award,
  users: Users,
  'shield-check': ShieldCheck,
};
const VALUE_ICONS: IconSet<(typeof values)[number]['icon']> = {
  lightbulb: Lightbulb,
  'shield-check': ShieldCheck,
  'trending-up': TrendingUp,
  users: Users,
};

export default function About() {
  // The founder as the owner set them in Business details (decision 047); the build's words until then.
  const set = useRouteLoaderData<{ business: BusinessDetails | null }>('root')?.business?.founder;
  const shown =
    set && set.name
      ? {
          name: set.name,
          photo: set.photo,
          initials: set.name
            .split(/\s+/)
            .map((word) => word[0])
            .join('')
            .slice(0, 2)
            .toUpperCase(),
          bio: set.bio.split(/\n\s*\n/).filter(Boolean),
        }
      : { ...founder, photo: null };
  return (
    <>
      <PageHero eyebrow={aboutHero.eyebrow} title={aboutHero.title} intro={aboutHero.intro} />

      <section aria-labelledby="founder-title" className="section">
        <div className="grid gap-10 lg:grid-cols-[auto_1fr] lg:gap-16">
          <div className="flex flex-col items-start gap-4">
            {shown.photo ? (
              <img
                src={shown.photo}
                alt={shown.name}
                width={160}
                height={160}
                className="size-40 rounded-3xl object-cover shadow-lg"
              />
            ) : (
              <div
                aria-hidden="true"
                className="flex size-40 items-center justify-center rounded-3xl bg-gradient-to-br from-brand-500 to-brand-800 text-5xl font-bold text-white shadow-lg"
              >
                {shown.initials}
              </div>
            )}
          </div>
          <div>
            <p className="eyebrow">{founder.eyebrow}</p>
            <h2
              id="founder-title"
              className="mt-2 text-3xl font-bold tracking-tight text-ink-900 sm:text-4xl"
            >
              {shown.name}
            </h2>
            <p className="mt-1 text-lg font-medium text-ink-700">{founder.role}</p>
            <div className="mt-6 grid max-w-3xl gap-4 text-lg leading-relaxed text-ink-700">
              {shown.bio.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </div>
          </div>
        </div>
      </section>

      <section aria-labelledby="credentials-title" className="bg-ink-50">
        <div className="section">
          <SectionHeader id="credentials-title" eyebrow={credentials.eyebrow} title={credentials.title} />
          <FeatureGrid items={credentials.items} icons={CREDENTIAL_ICONS} columns={4} />
        </div>
      </section>

      <section aria-labelledby="mission-title" className="section">
        <SectionHeader
          id="mission-title"
          eyebrow={mission.eyebrow}
          title={mission.title}
          intro={mission.text}
        />
        <h3 className="mt-16 text-center text-xl font-semibold text-ink-900">{mission.valuesTitle}</h3>
        <FeatureGrid items={values} icons={VALUE_ICONS} columns={4} />
      </section>

      <CtaBanner {...aboutCta} />
    </>
  );
}

import { ChartColumn, MessageCircle, Target } from 'lucide-react';
import { aiCta, aiHero, aiSeo, elliot, howItWorks } from '~/content/ai';
import { CtaBanner } from '~/components/sections/cta-banner';
import { FeatureGrid } from '~/components/sections/feature-grid';
import { PageHero } from '~/components/sections/page-hero';
import { SectionHeader } from '~/components/sections/section-header';
import { ActionLink } from '~/components/ui/action-link';
import type { IconSet } from '~/components/ui/icon';
import { OptionalImage } from '~/components/ui/optional-image';
import { VoiceSimulator } from '~/features/voice-simulator/voice-simulator';
import { pageMeta } from '~/lib/seo';

// Served at /ai and /ai-coaching; both name /ai as canonical so search engines index one page.
export const meta = () => pageMeta({ path: '/ai', ...aiSeo });

const STEP_ICONS: IconSet<(typeof howItWorks.steps)[number]['icon']> = {
  'message-circle': MessageCircle,
  target: Target,
  'bar-chart': ChartColumn,
};

export default function AiCoaching() {
  return (
    <>
      <PageHero eyebrow={aiHero.eyebrow} title={aiHero.title} intro={aiHero.intro}>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <ActionLink to={aiHero.primary.to}>{aiHero.primary.label}</ActionLink>
          <ActionLink to={aiHero.secondary.to} variant="secondary">
            {aiHero.secondary.label}
          </ActionLink>
        </div>
        <p className="mt-6 text-sm text-ink-700">{aiHero.priceLine}</p>
      </PageHero>

      <section aria-labelledby="elliot-title" className="px-4 pb-16 md:pb-24">
        <div className="mx-auto grid max-w-5xl overflow-hidden rounded-3xl border border-ink-100 bg-white shadow-xl lg:grid-cols-[1fr_1.2fr]">
          <div className="flex flex-col bg-ink-900 p-6 text-white sm:p-10">
            <h2 id="elliot-title" className="text-2xl font-bold">
              {elliot.title}
            </h2>
            <p className="mt-2 text-ink-200">{elliot.intro}</p>
            <div className="mt-8 flex flex-1 flex-col">
              <div className="flex items-center gap-4">
                <OptionalImage
                  src={elliot.avatar.src}
                  alt={elliot.avatar.alt}
                  width={elliot.avatar.width}
                  height={elliot.avatar.height}
                  className="size-24 rounded-full bg-ink-800 ring-4 ring-brand-500/40"
                />
                <p className="text-lg font-semibold" data-testid="elliot-caption">
                  {elliot.caption}
                </p>
              </div>
              <blockquote className="mt-6 border-l-4 border-brand-500 pl-4 text-lg leading-relaxed text-ink-100">
                <p>&ldquo;{elliot.quote}&rdquo;</p>
              </blockquote>
            </div>
          </div>
          <div className="flex flex-col justify-center gap-4 p-6 sm:p-10">
            <VoiceSimulator />
            <p className="text-sm text-ink-600">{elliot.privacyNote}</p>
          </div>
        </div>
      </section>

      <section aria-labelledby="how-title" className="bg-ink-50">
        <div className="section">
          <SectionHeader
            id="how-title"
            eyebrow={howItWorks.eyebrow}
            title={howItWorks.title}
            intro={howItWorks.intro}
          />
          <FeatureGrid items={howItWorks.steps} icons={STEP_ICONS} numbered />
        </div>
      </section>

      <div className="pt-16 md:pt-24">
        <CtaBanner {...aiCta} />
      </div>
    </>
  );
}

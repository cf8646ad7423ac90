import { Clock, Mail, Video } from 'lucide-react';
import { bookHero, bookSeo, faqs } from '~/content/book';
import { sessionCard } from '~/content/session';
import { BookFaq } from '~/components/sections/book-faq';
import { BookIncluded } from '~/components/sections/book-included';
import { PageHero } from '~/components/sections/page-hero';
import { Icon, type IconSet } from '~/components/ui/icon';
import { BookingWizard } from '~/features/booking/booking-wizard';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({
    path: '/book',
    ...bookSeo,
    jsonLd: [
      {
        '@context': 'https://schema.org',
        '@type': 'FAQPage',
        mainEntity: faqs.map((faq) => ({
          '@type': 'Question',
          name: faq.question,
          acceptedAnswer: { '@type': 'Answer', text: faq.answer },
        })),
      },
    ],
  });

const FACT_ICONS: IconSet<(typeof sessionCard.facts)[number]['icon']> = {
  clock: Clock,
  video: Video,
  mail: Mail,
};

export default function Book() {
  return (
    <>
      <PageHero width="narrow" eyebrow={bookHero.eyebrow} title={bookHero.title} intro={bookHero.intro} />
      <div className="mx-auto grid max-w-4xl gap-8 px-4 pb-16 md:pb-24">
        <section aria-labelledby="session-card-title" className="card border-brand-200 bg-brand-50 sm:p-8">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="session-card-title" className="text-2xl font-bold text-ink-900">
              {sessionCard.title}
            </h2>
            <span className="rounded-full bg-success-700 px-3 py-1 text-sm font-semibold text-white">
              {sessionCard.badge}
            </span>
          </div>
          <p className="mt-3 leading-relaxed text-ink-700">{sessionCard.text}</p>
          <ul className="mt-5 flex flex-wrap gap-x-6 gap-y-3 text-sm font-medium text-ink-800">
            {sessionCard.facts.map((fact) => (
              <li key={fact.label} className="flex items-center gap-2">
                <Icon icon={FACT_ICONS[fact.icon]} className="size-5 text-brand-700" />
                {fact.label}
              </li>
            ))}
          </ul>
        </section>

        {/* The wizard hides what sits below the form once the booking is made. */}
        <BookingWizard
          belowForm={
            <>
              <BookIncluded />
              <BookFaq />
            </>
          }
        />
      </div>
    </>
  );
}

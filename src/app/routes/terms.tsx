import { termsHero, termsSections, termsSeo } from '~/content/terms';
import { formatLongDate, LegalDocument } from '~/components/sections/legal-document';
import { PageHero } from '~/components/sections/page-hero';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/terms', ...termsSeo });

export default function Terms() {
  return (
    <>
      <PageHero width="prose" eyebrow={termsHero.eyebrow} title={termsHero.title} intro={termsHero.intro}>
        <p className="mt-4 text-sm text-ink-600">
          Last updated <time dateTime={termsHero.updated}>{formatLongDate(termsHero.updated)}</time>
        </p>
      </PageHero>
      <LegalDocument sections={termsSections} />
    </>
  );
}

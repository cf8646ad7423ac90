import { privacyHero, privacySections, privacySeo } from '~/content/privacy';
import { formatLongDate, LegalDocument } from '~/components/sections/legal-document';
import { PageHero } from '~/components/sections/page-hero';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/privacy', ...privacySeo });

export default function Privacy() {
  return (
    <>
      <PageHero
        width="prose"
        eyebrow={privacyHero.eyebrow}
        title={privacyHero.title}
        intro={privacyHero.intro}
      >
        <p className="mt-4 text-sm text-ink-600">
          Last updated <time dateTime={privacyHero.updated}>{formatLongDate(privacyHero.updated)}</time>
        </p>
      </PageHero>
      <LegalDocument sections={privacySections} />
    </>
  );
}

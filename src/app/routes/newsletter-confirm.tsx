import { PageHero } from '~/components/sections/page-hero';
import { NewsletterLinkPage } from '~/features/newsletter/newsletter-link-page';
import { NEWSLETTER_CONFIRM_PATH } from '~/features/newsletter/newsletter-fields';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({
    path: NEWSLETTER_CONFIRM_PATH,
    title: 'Confirm your subscription',
    description: 'Confirm your subscription to The Smart Money Newsletter.',
    noindex: true,
  });

/** Where the newsletter's confirmation link lands (double opt-in). */
export default function NewsletterConfirm() {
  return (
    <>
      <PageHero eyebrow="The Smart Money Newsletter" title="Confirm your subscription" />
      <div className="mx-auto max-w-3xl px-4 pb-16 md:pb-24">
        <NewsletterLinkPage action="confirm" />
      </div>
    </>
  );
}

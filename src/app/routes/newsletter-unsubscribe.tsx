import { PageHero } from '~/components/sections/page-hero';
import { NewsletterLinkPage } from '~/features/newsletter/newsletter-link-page';
import { NEWSLETTER_UNSUBSCRIBE_PATH } from '~/features/newsletter/newsletter-fields';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({
    path: NEWSLETTER_UNSUBSCRIBE_PATH,
    title: 'Unsubscribe',
    description: 'Unsubscribe from The Smart Money Newsletter.',
    noindex: true,
  });

/** Where every newsletter e-mail's unsubscribe link lands. */
export default function NewsletterUnsubscribe() {
  return (
    <>
      <PageHero eyebrow="The Smart Money Newsletter" title="Unsubscribe" />
      <div className="mx-auto max-w-3xl px-4 pb-16 md:pb-24">
        <NewsletterLinkPage action="unsubscribe" />
      </div>
    </>
  );
}

import { registrationCancelPage as copy } from '~/content/events';
import { PageHero } from '~/components/sections/page-hero';
import { REGISTRATION_CANCEL_PATH } from '~/features/events/events-api';
import { RegistrationLinkPage } from '~/features/events/registration-link-page';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({
    path: REGISTRATION_CANCEL_PATH,
    title: copy.seo.title,
    description: copy.seo.description,
    noindex: true,
  });

/** The attendee's page behind the cancel link of their masterclass e-mails. */
export default function MasterclassCancel() {
  return (
    <>
      <PageHero eyebrow={copy.eyebrow} title={copy.title} />
      <div className="mx-auto max-w-3xl px-4 pb-16 md:pb-24">
        <RegistrationLinkPage />
      </div>
    </>
  );
}

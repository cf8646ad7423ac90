import { bookingActionCopy } from '~/content/booking';
import { PageHero } from '~/components/sections/page-hero';
import { BookingLinkPage } from '~/features/booking/booking-link-page';
import { CANCEL_PATH } from '~/features/booking/booking-paths';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({
    path: CANCEL_PATH,
    title: bookingActionCopy.cancelTitle,
    description: 'Cancel your strategy session.',
    noindex: true,
  });

/** The applicant's page behind the cancel link of their booking e-mails. */
export default function BookingCancel() {
  return (
    <>
      <PageHero title={bookingActionCopy.cancelTitle} />
      <div className="mx-auto max-w-3xl px-4 pb-16 md:pb-24">
        <BookingLinkPage />
      </div>
    </>
  );
}

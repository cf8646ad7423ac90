import { bookingActionCopy } from '~/content/booking';
import { PageHero } from '~/components/sections/page-hero';
import { BookingLinkPage } from '~/features/booking/booking-link-page';
import { RESPOND_PATH } from '~/features/booking/booking-paths';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({
    path: RESPOND_PATH,
    title: bookingActionCopy.respondTitle,
    description: 'Confirm or decline a strategy session request.',
    noindex: true,
  });

/** The owner's page behind the confirm and decline links of a booking e-mail. */
export default function BookingRespond() {
  return (
    <>
      <PageHero title={bookingActionCopy.respondTitle} />
      <div className="mx-auto max-w-3xl px-4 pb-16 md:pb-24">
        <BookingLinkPage />
      </div>
    </>
  );
}

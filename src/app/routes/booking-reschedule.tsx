import { bookingActionCopy } from '~/content/booking';
import { PageHero } from '~/components/sections/page-hero';
import { BookingLinkPage } from '~/features/booking/booking-link-page';
import { RESCHEDULE_PATH } from '~/features/booking/booking-paths';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({
    path: RESCHEDULE_PATH,
    title: bookingActionCopy.rescheduleTitle,
    description: 'Move your strategy session to another time.',
    noindex: true,
  });

/** The applicant's page behind the reschedule link of their confirmation e-mail (decision 039). */
export default function BookingReschedule() {
  return (
    <>
      <PageHero title={bookingActionCopy.rescheduleTitle} />
      <div className="mx-auto max-w-3xl px-4 pb-16 md:pb-24">
        <BookingLinkPage />
      </div>
    </>
  );
}

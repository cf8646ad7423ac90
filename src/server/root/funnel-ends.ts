/**
 * The funnels' last steps after "Sent" (decision 042), each counted by the feature whose tables
 * hold it: the Visits page reads them through this list, never those tables.
 */
import type { FunnelEnds } from '~/features/analytics/funnel-ends.server';
import { confirmedBookingsSent } from '~/features/booking/booking-funnel.server';
import { registrationsWithPlace } from '~/features/events/registration-funnel.server';

export const FUNNEL_ENDS: FunnelEnds = {
  booking: confirmedBookingsSent,
  masterclass: registrationsWithPlace,
};

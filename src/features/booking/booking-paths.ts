/** The pages behind the booking e-mails' signed links (prerendered, listed in UTILITY_PATHS). */
export const RESPOND_PATH = '/booking/respond';
export const CANCEL_PATH = '/booking/cancel';
export const RESCHEDULE_PATH = '/booking/reschedule';

/** The signed-link API the pages call. */
export const LINK_API = '/api/bookings/link';
export const LINK_ACT_API = '/api/bookings/link/act';

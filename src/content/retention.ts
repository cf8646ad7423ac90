/**
 * How long personal data is kept: the one place both the privacy notice (src/content/privacy.ts)
 * and the daily retention job (src/server/console/retention.ts) read, so they cannot disagree.
 */
export type RetentionPeriods = {
  readonly contactMonths: number;
  readonly bookingMonthsAfterSession: number;
  readonly masterclassMonthsAfterEvent: number;
  readonly spamDays: number;
  readonly emailBodyDays: number;
  readonly ipHashHours: number;
  readonly analyticsViewDays: number;
  readonly analyticsRollupMonths: number;
  readonly newsletterSendMonths: number;
};

export const RETENTION: RetentionPeriods = {
  /** Contact messages are deleted this many months after they arrived. */
  contactMonths: 24,
  /** Bookings (and the request they came from) this many months after the session's day. */
  bookingMonthsAfterSession: 24,
  /** Masterclass registrations (and the form they came from) this many months after the masterclass. */
  masterclassMonthsAfterEvent: 12,
  /** Submissions held as spam, this many days after they arrived. */
  spamDays: 30,
  /** The body of a sent e-mail (in the outbox and as a .eml file), this many days after sending. */
  emailBodyDays: 30,
  /** The hashed client address on a submission (the rate limit's window), in hours. */
  ipHashHours: 24,
  /** A counted page view (no person named: decision 042), this many days after the day it was counted. */
  analyticsViewDays: 30,
  /** The daily totals made from the views, this many months after their day. */
  analyticsRollupMonths: 60,
  /** Which reader each newsletter issue was sent to: the address is removed this many months after the send. */
  newsletterSendMonths: 24,
};

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** The privacy notice's retention list, made from the periods above. */
export function retentionNotice(periods: RetentionPeriods = RETENTION): string[] {
  return [
    'Guide and newsletter: until you unsubscribe or withdraw consent. We then keep only a scrambled (keyed hash) form of your e-mail address on a suppression list, so that we never write to you again by mistake.',
    `Contact messages: deleted ${plural(periods.contactMonths, 'month')} after they reach us.`,
    `Bookings: deleted ${plural(periods.bookingMonthsAfterSession, 'month')} after the session; if you paid us, the invoice records are kept for 6 years, as UK tax law requires.`,
    `Masterclass registrations: deleted ${plural(periods.masterclassMonthsAfterEvent, 'month')} after the masterclass.`,
    `Messages held back as spam: deleted ${plural(periods.spamDays, 'day')} after they reach us.`,
    `Newsletters we send you: we keep which issue was sent to your address, when, and whether it arrived, so that nobody receives an issue twice and we can see deliveries that failed; the record loses your address ${plural(periods.newsletterSendMonths, 'month')} after the send (only the counts stay), and goes at once if you ask us to erase your data. We use no tracking pixel and no per-person links to see whether you opened or clicked a newsletter.`,
    `E-mails we send you: their text is deleted ${plural(periods.emailBodyDays, 'day')} after sending; we keep only the record that an e-mail was sent, and when. If your mail server refuses or returns our e-mail as undeliverable, or you report one as spam, we keep a scrambled (keyed hash) form of your address on the same suppression list and stop writing to it.`,
    'AI voice calls: we do not keep recordings or transcripts. The voice provider processes the call while it runs and may keep call logs for a limited period under its own data processing terms.',
    `Visit counts (no cookies, nothing that names you): each page view is deleted ${plural(periods.analyticsViewDays, 'day')} after the visit; the daily totals made from them are deleted after ${plural(periods.analyticsRollupMonths, 'month')}. The day's random value that tells one visitor from another is destroyed at the end of that day.`,
    `Abuse protection data: the hashed IP address is erased from your submission within ${periods.ipHashHours + 1} hours of receiving it; the user agent is kept with the submission.`,
  ];
}

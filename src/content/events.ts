/**
 * The masterclasses' words on the public site: the Resources page's card (spec labels kept
 * exactly: 'Upcoming Masterclass', 'Reserve Your Spot', '+ Calendar'), the registration form
 * and its answers, and the page behind the cancel link of the registration e-mails.
 */
import { masterclassConsent } from './masterclass-consent';

/** The card on the Resources page, filled from GET /api/events/next after hydration. */
export const masterclassCard = {
  /** While the next masterclass is fetched (and what a page read without JavaScript shows). */
  loading: {
    eyebrow: 'Masterclasses',
    title: 'Live masterclasses',
    text: 'Live online sessions on allocation sizing, UK tax and secure custody, with time for your questions. The next date appears here.',
  },
  upcoming: { eyebrow: 'Upcoming Masterclass' },
  past: {
    eyebrow: 'Past Masterclass',
    note: 'This masterclass has taken place. Subscribe below to hear about the next one.',
  },
  cancelled: {
    eyebrow: 'Cancelled Masterclass',
    note: 'This masterclass has been cancelled. Subscribe below to hear about the next one.',
  },
  /** No masterclass scheduled (or the answer could not be fetched). */
  none: {
    eyebrow: 'Masterclasses',
    title: 'No masterclass scheduled at the moment',
    text: 'We run live masterclasses on allocation sizing, UK tax and secure custody a few times a year. Subscribe to The Smart Money Newsletter and we will tell you when the next one opens for registration.',
    link: { label: 'Tell me about the next one', href: '#newsletter' },
  },
  format: { online: 'Live online with Q&A' },
  /** "UK time" is said by the zone (BST or GMT) after the times. */
  placesLeft: (n: number) => (n === 1 ? '1 place left' : `${n} places left`),
  fullyBooked: 'Fully booked: join the waitlist',
  fullyBookedClosed: 'Fully booked',
  openNote: 'Free to attend. Places are limited so that every question gets an answer.',
  opensNote: (when: string) => `Registration opens ${when}.`,
  closedNote: 'Registration has closed.',
  reserve: { label: 'Reserve Your Spot', href: '#register' },
  calendar: {
    label: '+ Calendar',
    srSuffix: ' (download the masterclass as a calendar file)',
    toastTitle: 'Calendar file downloaded',
    toastDescription: 'Open the .ics file to add the masterclass to your calendar.',
  },
  /** A short label for each line of facts, read by screen readers before the value. */
  facts: { date: 'Date', time: 'Time', format: 'Format', places: 'Places' },
} as const;

/** The registration section (id `register`) and its form. */
export const registrationForm = {
  eyebrow: 'Free live masterclass',
  title: 'Register for the masterclass',
  intro: (title: string, when: string) => `Register for "${title}" on ${when}.`,
  waitlistIntro:
    'Every place is taken: register and we will put you on the waitlist. If a place frees up, the first on the list gets it and we will e-mail you.',
  label: 'Masterclass registration',
  fields: { firstName: 'Full Name', email: 'Email Address', company: 'Current Role or Company' },
  /** The consent box: the current version's wording (the version the schema sends by default). */
  consent: masterclassConsent.text,
  submit: 'Reserve My Spot',
  submitWaitlist: 'Join the Waitlist',
  submitting: 'Reserving...',
  failed: 'Registration failed. Please try again.',
  /** A 400 without a field the form shows (the event id): the page is out of date. */
  reload: 'Please reload the page and try again.',
  notYetOpen: {
    title: 'Registration is not open yet',
    text: (when: string) => `Registration opens ${when}.`,
  },
  closed: { title: 'Registration has closed', text: 'Registration for this masterclass has closed.' },
  registered: {
    heading: "You're registered",
    text: 'A confirmation e-mail with a calendar file is on its way. It has a link to cancel if your plans change. If your address once asked us to delete its details or stop writing, we e-mail you first to confirm it.',
  },
  waitlisted: {
    heading: "You're on the waitlist",
    text: 'Every place is taken for now. If a place frees up, we will give it to the first on the waitlist and e-mail you.',
  },
} as const;

/** The page behind the cancel link of the registration e-mails. */
export const registrationCancelPage = {
  seo: {
    title: 'Cancel your masterclass registration',
    description: 'Cancel your masterclass registration.',
  },
  eyebrow: 'Masterclass',
  title: 'Cancel your registration',
  loading: 'Checking your link...',
  facts: { event: 'Masterclass', when: 'When', status: 'Your registration' },
  status: {
    registered: 'Registered: a place is held for you',
    waitlisted: 'On the waitlist',
    cancelled: 'Cancelled',
  },
  eventCancelled: 'This masterclass has been cancelled, so there is nothing to cancel. We are sorry.',
  alreadyCancelled: 'This registration is already cancelled.',
  button: 'Cancel my registration',
  working: 'Cancelling...',
  refusals: {
    missing: 'This link is incomplete. Please open it again from the e-mail.',
    invalid: 'This link is not valid. Please use the link exactly as it appears in the e-mail.',
    over: 'This masterclass is over, so the link no longer works.',
    network: 'We could not reach the server. Please check your connection and try again.',
  },
} as const;

/**
 * The visit counts (decision 042): which pages hold each form (a form's funnel starts with the
 * visitors of those pages), what the counting is called on the privacy page and in the console,
 * and the beacon's address.
 */

/** `POST` a page view here, once the page is shown (src/features/analytics/beacon.ts). */
export { VIEWS_API } from './views-api';

/** The forms whose submissions are goals, each with the pages that hold it and its funnel's name. */
export const FORM_GOALS = [
  { formType: 'booking', name: 'Strategy session booking', pages: ['/book'] },
  { formType: 'contact', name: 'Contact message', pages: ['/contact'] },
  { formType: 'bitcoin_guide', name: 'Free guide', pages: ['/', '/resources'] },
  { formType: 'newsletter', name: 'Newsletter sign-up', pages: ['/resources'] },
  { formType: 'masterclass', name: 'Masterclass registration', pages: ['/resources'] },
] as const;

export type GoalFormType = (typeof FORM_GOALS)[number]['formType'];

/** The funnel's last step, for the forms that have one after sending. */
export const FUNNEL_END_LABELS: Partial<Record<GoalFormType, string>> = {
  booking: 'Confirmed by the owner',
  masterclass: 'Got a place',
};

export const FUNNEL_STEP_LABELS = {
  visited: 'Visited the page',
  started: 'Started the form',
  sent: 'Sent',
} as const;

/** The privacy notice's paragraphs on the visit counts. */
export const ANALYTICS_PRIVACY = {
  heading: 'Counting visits',
  paragraphs: [
    'We count visits to this site so we can see which pages are useful and which bring enquiries. We do this ourselves, on our own server, without cookies and without any third-party analytics service. Nothing is stored on or read from your device.',
    'When a page has been shown, your browser tells our server which page it was, the website that linked to it (its name only), any campaign tags in the link (utm_source, utm_medium, utm_campaign), and whether you are on a computer, a tablet or a phone. We store those, with the hour of the visit.',
    'To count one person once a day rather than once a page, the server makes a one-way code from a random value that changes every day, your IP address and your browser’s name. The random value is kept only until the end of that day (UK time) and is then destroyed, after which the code cannot be linked to you or to your visits on any other day. We never store your IP address, your full browser details or the full address of the page that linked to us.',
    'The purpose is statistics alone: we do not use them to identify, profile or contact anyone, and we do not share them. UK law (the Data (Use and Access) Act 2025) allows statistics like these without asking for consent, provided you are told and can object.',
    'To object, switch on Global Privacy Control or “Do Not Track” in your browser: we then count nothing from that browser, and no cookie is needed to remember your choice.',
  ],
} as const;

import { site } from './site';
import type { Seo } from './types';

export const resourcesSeo: Seo = {
  title: 'Wealth building resources',
  description:
    'Free Bitcoin Wealth Building Guide, live masterclasses, articles and The Smart Money Newsletter for UK professionals.',
};

export const resourcesHero = {
  eyebrow: 'Resources',
  title: 'Wealth Building Resources',
  intro:
    'Guides, live masterclasses and articles to help you think clearly about Bitcoin and long-term wealth. Free to use, educational and UK-focused.',
};

export const featuredResource = {
  eyebrow: 'Featured Resource',
  title: 'The Bitcoin Wealth Building Guide',
  text: 'Our free guide for UK professionals: the foundations to put in place first, how to size an allocation, tax basics and safe custody.',
  facts: ['PDF', 'Free', 'UK-focused'],
  highlights: [
    'Your financial foundations checklist',
    'The 1-5% allocation framework',
    'A plain-English custody and security guide',
  ],
  cta: { label: 'Download the Free Guide', href: '#download-kit' },
};

/**
 * The masterclass. Times carry their offset so the card, the calendar file and the
 * structured data agree; 10 July 2025 is in British Summer Time (UTC+1).
 */
export const masterclass = {
  eyebrow: 'Upcoming Masterclass',
  pastEyebrow: 'Past Masterclass',
  title: 'Bitcoin for High Earners: Building a Position You Can Hold',
  description:
    'A live session on allocation sizing, UK tax and secure custody for professionals earning £100k or more, followed by an open Q&A.',
  startsAt: '2025-07-10T19:00:00+01:00',
  endsAt: '2025-07-10T20:30:00+01:00',
  dateLabel: 'Thursday 10 July 2025',
  timeLabel: '19:00-20:30 BST',
  formatLabel: 'Live online with Q&A',
  upcomingNote: 'Places are limited so that every question gets an answer.',
  pastNote: 'This masterclass has taken place. Subscribe below to hear about the next one.',
  reserve: { label: 'Reserve Your Spot', href: '#register' },
  calendar: {
    label: '+ Calendar',
    /** Generated at build time from this object by scripts/build-assets.ts. */
    path: '/events/masterclass-2025-07-10.ics',
    fileName: 'masterclass-2025-07-10.ics',
    /** Stable, so a calendar updates the same event when the file is downloaded again. */
    uid: 'masterclass-2025-07-10@sterling-sats',
    /** When the event details were last changed (DTSTAMP); keeps the file reproducible. */
    updatedAt: '2025-06-01T09:00:00Z',
    toastTitle: 'Calendar file downloaded',
    toastDescription: 'Open masterclass-2025-07-10.ics to add the masterclass to your calendar.',
  },
  organizer: site.brand,
  onlineUrl: '/resources#register',
};

export const articlesSection = {
  title: 'Latest Articles',
  intro:
    'Considered, UK-focused writing on Bitcoin and long-term wealth. Subscribers to The Smart Money Newsletter hear about each new article first.',
  viewAll: { label: 'View All', href: '/resources/articles', srSuffix: ' articles' },
  readLabel: 'Read Article',
  /** How many of the newest articles the Resources page shows. */
  count: 3,
};

/** The list of all articles (/resources/articles) and each article's page. */
export const articlesPage = {
  seo: {
    title: 'Articles',
    description:
      'Every article from Sterling Sats: UK-focused education on Bitcoin allocation, tax and building long-term wealth.',
  } satisfies Seo,
  eyebrow: 'Resources',
  title: 'Articles',
  intro:
    'UK-focused education on Bitcoin and long-term wealth, newest first. General education only, never personal advice.',
  readLabel: 'Read Article',
  articleEyebrow: 'Article',
  backLabel: 'All articles',
  /** The Atom feed's title. */
  feedTitle: 'Sterling Sats articles',
};

export const downloadKit = {
  eyebrow: 'Download kit',
  title: 'Get the free Bitcoin Wealth Building Guide',
  intro: 'Tell us where to send it and the guide is yours straight away.',
  points: [
    'What to put in place before buying any Bitcoin',
    'A framework for a 1-5% allocation',
    'UK capital gains tax basics and record keeping',
    'Custody options compared, step by step',
  ],
};

export const newsletter = {
  eyebrow: 'Sent monthly',
  title: 'The Smart Money Newsletter',
  intro:
    'One considered e-mail a month: new articles, masterclass dates and registration links, and the ideas our clients find most useful. No hype and no spam; unsubscribe at any time.',
};

/** The Smart Money Newsletter sign-up form's words (spec sections 7 and 8). */
export const newsletterForm = {
  label: 'Subscribe to The Smart Money Newsletter',
  fields: { firstName: 'First Name', lastName: 'Last Name', email: 'Email Address' },
  submit: 'Subscribe',
  submitting: 'Subscribing...',
  subscribed: 'Thank you for subscribing!',
  subscribedDetail: 'Please confirm with the link we have just e-mailed you.',
  failed: 'Failed to subscribe. Please try again.',
};

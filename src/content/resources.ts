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

/**
 * The masterclasses' own pages (decision 047): `/masterclasses`, every one upcoming and past, and
 * `/masterclasses/<slug>`, one with its registration. Imported by that route alone.
 */
import type { Seo } from './types';

export const masterclassesPage = {
  seo: {
    title: 'Masterclasses',
    description:
      'Free live masterclasses from Sterling Sats on Bitcoin allocation sizing, UK tax and secure custody for UK professionals, with time for your questions.',
  } satisfies Seo,
  eyebrow: 'Resources',
  title: 'Masterclasses',
  intro:
    'Free live sessions on allocation sizing, UK tax and secure custody, with time for your questions. General education only, never personal advice.',
  upcomingTitle: 'Upcoming',
  pastTitle: 'Past masterclasses',
  none: 'No masterclass is scheduled at the moment. Subscribe to The Smart Money Newsletter and we will tell you when the next one opens for registration.',
  noneLink: { label: 'Tell me about the next one', href: '/resources#newsletter' },
  cancelled: 'Cancelled',
  detailsLabel: (title: string) => `Details and registration for ${title}`,
  pastNote: 'This masterclass has taken place.',
  /** On the Resources page, below the next one's card, when more than one is to come. */
  allUpcoming: (n: number) => `See all ${n} upcoming masterclasses`,
  /** On one masterclass's page. */
  eventEyebrow: 'Masterclass',
  backLabel: 'All masterclasses',
  online: 'Live online with Q&A',
};

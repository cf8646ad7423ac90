/**
 * The words of the newsletter's archive (`/newsletter` and each issue on it, issue #26). Only
 * the archive's route imports them (and the Resources page's loader, whose words travel in its
 * data), so they stay out of every shared chunk (decision 006).
 */
import type { CallToAction } from './types';

export const newsletterArchive = {
  seo: {
    title: 'Past issues of The Smart Money Newsletter',
    description:
      'Past issues of The Smart Money Newsletter: considered notes on Bitcoin for UK professionals, new articles and masterclass dates.',
  },
  eyebrow: 'The Smart Money Newsletter',
  title: 'Past issues',
  intro:
    'Issues of the newsletter as they were sent, newest first. Subscribe to receive the next one by e-mail.',
  none: 'No issues are on the site yet.',
  sentLabel: 'Sent',
  backLabel: 'All past issues',
  feedTitle: 'The Smart Money Newsletter',
  /** The link from the newsletter section of the Resources page. */
  resourcesLink: 'Read past issues',
  /** The invitation at the end of every issue, and under the list. */
  closing: {
    title: 'Get the next issue by e-mail',
    text: 'One considered e-mail a month. No hype and no spam; unsubscribe at any time.',
    action: { label: 'Subscribe to the newsletter', to: '/resources#newsletter' } satisfies CallToAction,
  },
};

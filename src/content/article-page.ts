/**
 * The words of an article's page beyond its text (the articles' route alone imports them, so they
 * stay out of the chunk the home page shares with Resources: decision 006).
 */
import type { CallToAction } from './types';

export const articlePage = {
  /** Beside the date: the UK tax year whose figures the article quotes. */
  taxYearLabel: (taxYear: string) => `Figures for the ${taxYear} tax year`,
  /** The invitation at the end of every article. */
  closing: {
    title: 'Want to talk it through?',
    text: 'Book a free 45-minute strategy session and we will look at where Bitcoin fits in your own plans, or get the next article first in The Smart Money Newsletter.',
    primary: { label: 'Book Your Free Strategy Session', to: '/book' } satisfies CallToAction,
    secondary: { label: 'Join the newsletter', to: '/resources#newsletter' } satisfies CallToAction,
  },
  relatedTitle: 'More articles',
};

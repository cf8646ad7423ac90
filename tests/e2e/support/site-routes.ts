import { readArticleFiles } from '../../../scripts/articles';
import { articlePath, ARTICLES_PATH } from '../../../src/content/articles';
import { MASTERCLASSES_PAGE } from '../../../src/content/routes';

/** The articles as their Markdown files hold them, newest first. */
export const ARTICLES = readArticleFiles();

/** Every page of the site with its h1 and copy the spec requires there (its contract wording). */
export type RouteCheck = { path: string; h1: string | RegExp; copy: readonly string[] };

export const SITE_ROUTES: readonly RouteCheck[] = [
  {
    path: '/',
    h1: 'Turn a high income into lasting wealth',
    copy: ['£100,000', '£105,000', 'Smart Education', 'Confidence & Clarity', 'AI-Powered Coaching', '£97'],
  },
  {
    path: '/about',
    h1: /clarity/i,
    copy: ['Founder profile', 'Clarity', 'Confidence', 'Long-term', 'Community'],
  },
  {
    path: '/services',
    h1: 'Our Services',
    copy: [
      'Strategy Session',
      'AI Mobile App',
      'Team & Enterprise',
      'Available after completing the strategy session',
      '£495',
      'From £5k',
    ],
  },
  {
    path: '/ai',
    h1: 'AI-Powered Bitcoin Coaching',
    copy: [
      'Book Your Free Strategy Call',
      'Request Demo Access',
      'Elliot, Bitcoin Consultant',
      '1-5 %',
      'How AI Coaching Works',
      'Practice Real Scenarios',
      'Build Smart Strategies',
      'Track Your Progress',
    ],
  },
  {
    path: '/ai-coaching',
    h1: 'AI-Powered Bitcoin Coaching',
    copy: ['Elliot, Bitcoin Consultant', 'How AI Coaching Works'],
  },
  {
    path: '/book',
    h1: 'Book Your Strategy Session',
    copy: [
      'Sterling Sats Strategy Session',
      'Free',
      "What's Included",
      '£1,995',
      'Is this regulated financial advice?',
    ],
  },
  {
    path: '/resources',
    h1: 'Wealth Building Resources',
    copy: [
      'Featured Resource',
      // The masterclass card (its eyebrow while loading, and with no masterclass; the next one
      // is fetched after hydration: events-public.spec.ts).
      'Masterclasses',
      'Latest Articles',
      '15 Jun 2025',
      '8 Jun 2025',
      '28 May 2025',
      'The Smart Money Newsletter',
    ],
  },
  {
    path: '/contact',
    h1: 'Contact Us',
    copy: [
      'Send Us a Message',
      // No business details set: no stand-in e-mail, phone or address, the form instead.
      'Please use the form to reach us',
      'Schedule a Discovery Call',
      'Complimentary, 15 minutes',
      'Partnership Opportunities',
      'Discuss Partnerships',
    ],
  },
  {
    path: '/privacy',
    h1: 'Privacy Notice',
    copy: ['Lawful basis', 'How long we keep it', 'Information Commissioner', 'Your rights'],
  },
  {
    path: '/terms',
    h1: 'Terms of Service',
    copy: ['educational content only, not regulated financial advice'],
  },
  {
    path: ARTICLES_PATH,
    h1: 'Articles',
    copy: ARTICLES.flatMap((a) => [a.title, `${a.readingMinutes} min read`]),
  },
  ...ARTICLES.map((a) => ({
    path: articlePath(a.slug),
    h1: a.title,
    copy: [
      `${a.readingMinutes} min read`,
      'not regulated financial advice',
      'All articles',
      'Want to talk it through?',
    ],
  })),
  {
    // With no masterclass published on this server: the list says so and offers the newsletter.
    path: MASTERCLASSES_PAGE.path,
    h1: 'Masterclasses',
    copy: ['Upcoming', 'No masterclass is scheduled at the moment', 'Tell me about the next one'],
  },
];

/** The 404 page's wording; the console error it logs names the missing path. */
export const NOT_FOUND = { h1: /Oops! Page not found/, code: '404', cta: 'Return to Home' };

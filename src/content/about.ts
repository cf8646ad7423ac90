import { site } from './site';
import type { CallToAction, Feature, Seo } from './types';

export const aboutSeo: Seo = {
  title: 'About us',
  description: `Meet the founder of ${site.brand} and the mission behind it: clear, independent Bitcoin education for UK professionals and the firms that advise them.`,
};

export const aboutHero = {
  eyebrow: `About ${site.brand}`,
  title: 'Bitcoin education built on clarity, not hype',
  intro: `${site.brand} exists because capable, well-paid people deserve better than social media noise or a hard sell when they ask a sensible question about Bitcoin.`,
};

/**
 * OWNER TO CONFIRM: the founder's name, biography and credentials are written to show the
 * page; replace them with the real details (and nothing the founder cannot evidence) before
 * launch.
 */
export const founder = {
  eyebrow: 'Founder profile',
  name: 'Alex Morgan',
  role: 'Founder and Lead Educator',
  initials: 'AM',
  bio: [
    'Alex spent fifteen years in UK financial services, first in private banking and then leading investment training for adviser teams, before founding Sterling Sats.',
    'After years of watching clients and colleagues either dismiss Bitcoin outright or buy it on a whim, Alex set out to offer the missing middle: patient, balanced education that starts from your whole financial picture and treats Bitcoin as one small, deliberate part of it.',
    'Today Alex works with individual professionals across the UK and runs training for wealth advisory firms, IFA networks and CPD providers.',
  ],
};

/** OWNER TO CONFIRM, like the profile above: list only credentials the founder can evidence. */
export const credentials = {
  eyebrow: 'Credentials',
  title: 'Experience you can check',
  items: [
    {
      icon: 'briefcase',
      title: '15 years in UK financial services',
      text: 'Private banking, wealth management and adviser training.',
    },
    {
      icon: 'award',
      title: 'Professional qualifications',
      text: 'Chartered-level financial planning qualifications and ongoing CPD.',
    },
    {
      icon: 'users',
      title: 'Hundreds of professionals taught',
      text: 'One-to-one sessions, workshops and firm-wide programmes.',
    },
    {
      icon: 'shield-check',
      title: 'Education, never sales',
      text: 'We receive no commission from exchanges, products or platforms.',
    },
  ] as const satisfies readonly Feature[],
};

export const mission = {
  eyebrow: 'Our mission',
  title: 'Help one thousand UK professionals make a calm, informed decision about Bitcoin',
  text: 'Not to persuade anyone to buy. To make sure that whatever you decide, you decide it with a clear understanding of the asset, of your own finances and of the risks involved.',
  valuesTitle: 'What we stand for',
};

/** The spec's four values. */
export const values = [
  {
    icon: 'lightbulb',
    title: 'Clarity',
    text: 'Plain English, honest numbers and no jargon used to impress.',
  },
  {
    icon: 'shield-check',
    title: 'Confidence',
    text: 'Decisions you understand well enough to explain and to stick with.',
  },
  {
    icon: 'trending-up',
    title: 'Long-term',
    text: 'Years and decades, not the next price move or headline.',
  },
  {
    icon: 'users',
    title: 'Community',
    text: 'A network of thoughtful peers, including the invitation-only Financial Independence Circle.',
  },
] as const satisfies readonly Feature[];

export const aboutCta = {
  title: 'Start with a conversation',
  text: 'Book a free 45-minute strategy session and see whether our approach suits you.',
  primary: { label: 'Book Your Free Strategy Session', to: '/book' } satisfies CallToAction,
  secondary: { label: 'Explore Our Services', to: '/services' } satisfies CallToAction,
};

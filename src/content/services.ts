import { prices } from './prices';
import type { CallToAction, PlanCard, Seo } from './types';

export const servicesSeo: Seo = {
  title: 'Our services',
  description:
    'A free 45-minute Bitcoin strategy session, the AI coaching app and training for teams and firms. Educational services for UK professionals and advisers.',
};

export const servicesHero = {
  eyebrow: 'Our Services',
  title: 'Our Services',
  intro:
    'Three ways to learn, from a free one-to-one session to training for a whole firm. Every one of them is education: we never sell or recommend specific investments.',
  offersTitle: 'Our three offers',
};

/** The spec's three offer cards. */
export const offers = [
  {
    title: 'Strategy Session',
    price: prices.strategySession.amount,
    priceNote: prices.strategySession.note,
    description:
      'A private 45-minute video session on your situation: your goals, your current plan, and whether and how Bitcoin could play a part.',
    features: [
      'Personal review of your starting point',
      'Resource package: handbook, compliance frameworks, investment guides and training materials',
      '30 days of follow-up e-mail support',
    ],
    cta: 'Book Your Free Session',
    link: '/book',
    primary: true,
    icon: 'video',
  },
  {
    title: 'AI Mobile App',
    // Conflict 1 (see prices.ts): the services card shows the £49/month or £495/year reading.
    price: prices.aiCoachingApp.amount,
    priceNote: prices.aiCoachingApp.note,
    description:
      'Practise conversations about Bitcoin exposure with Elliot, our AI consultant: client meetings, family discussions and tricky objections.',
    features: [
      'Voice practice on your phone',
      'Scenarios for advisers and investors',
      'Track your progress over time',
    ],
    cta: 'Learn More',
    ctaContext: 'about AI coaching',
    link: '/ai',
    primary: false,
    note: 'Available after completing the strategy session.',
    icon: 'bot',
  },
  {
    title: 'Team & Enterprise',
    // Conflict 2 (see prices.ts): the services card shows the "from £5k per month" reading.
    price: prices.teamEnterprise.amount,
    priceNote: prices.teamEnterprise.note,
    description:
      'Programmes for wealth advisory firms, IFA networks, wealth platforms, CPD providers and educational institutions.',
    features: [
      'Live workshops, online or in person',
      'Compliance-aware frameworks and materials',
      'CPD-friendly content and ongoing adviser support',
    ],
    cta: 'Book Team Training',
    link: '/book',
    primary: false,
    icon: 'users',
  },
] as const satisfies readonly PlanCard[];

export const circle = {
  eyebrow: 'Community',
  title: 'Financial Independence Circle',
  price: prices.financialIndependenceCircle.amount,
  text: 'An invitation-only community for clients who have completed a strategy session: quarterly round tables, early access to masterclasses and a private forum of thoughtful peers.',
};

export const servicesCta = {
  title: 'Not sure where to start?',
  text: 'The free strategy session is the best first step for almost everyone. We will point you to the right next step, or tell you honestly if you do not need one.',
  primary: { label: 'Book Your Free Strategy Session', to: '/book' } satisfies CallToAction,
  secondary: { label: 'Contact Us', to: '/contact' } satisfies CallToAction,
};

import { prices } from './prices';
import { site } from './site';
import type { CallToAction, Feature, PlanCard, Seo } from './types';

export const homeSeo: Seo = {
  title: `${site.brand}: Bitcoin education and coaching for UK professionals`,
  description:
    'Independent Bitcoin education for UK professionals earning £100k+ and the firms that advise them. Free strategy session, AI coaching, team training and a free Wealth Building Guide.',
};

export const homeHero = {
  eyebrow: 'Bitcoin education for UK professionals',
  title: 'Turn a high income into lasting wealth',
  intro:
    'Clear, independent Bitcoin education for professionals earning £100k or more, and for the advisers and firms who serve them. Understand what Bitcoin is, where it can fit in a considered long-term plan, and how to talk about it with confidence.',
  primary: { label: 'Book Your Free Strategy Session', to: '/book' } satisfies CallToAction,
  secondary: { label: 'Explore Our Services', to: '/services' } satisfies CallToAction,
  assurances: ['Free 45-minute session', 'No sales pitch', 'Educational, never product-pushing'],
};

/** The spec's reality check: earning £100k, spending £105k. */
export const realityCheck = {
  eyebrow: 'The reality check',
  title: 'Six figures in, five thousand short',
  intro:
    'Plenty of people on a six-figure salary are less secure than their payslip suggests. Promotions bring bigger homes, school fees and a lifestyle that quietly grows to match, then overtakes, what comes in.',
  rows: [
    { label: 'Earning', value: '£100,000', note: 'a year, before anything is put aside' },
    { label: 'Spending', value: '£105,000', note: 'mortgage, school fees, cars, holidays, subscriptions' },
  ],
  result: { label: 'Every year', value: '−£5,000', note: 'further behind, however good the salary looks' },
  conclusion:
    'Income pays for your life; what you keep, and how you hold it, builds your wealth. We start with the fundamentals (cash flow, an emergency fund, pensions and ISAs) and only then look at whether a small, deliberate Bitcoin allocation belongs in the picture.',
};

export const pillarsSection = {
  eyebrow: 'How we help',
  title: 'Three pillars of a sound Bitcoin strategy',
  intro:
    'Everything we teach rests on the same three ideas: understand it, decide calmly, practise until it is second nature.',
};

/** The spec's three pillars. */
export const pillars = [
  {
    icon: 'graduation-cap',
    title: 'Smart Education',
    text: 'How Bitcoin works, why it behaves as it does, how it is taxed in the UK and how to hold it safely, taught in plain English without hype or jargon.',
  },
  {
    icon: 'compass',
    title: 'Confidence & Clarity',
    text: 'A framework for deciding whether Bitcoin has a place in your plan at all, how large that place should be, and how to stick to it when prices swing.',
  },
  {
    icon: 'bot',
    title: 'AI-Powered Coaching',
    text: 'Rehearse real conversations with Elliot, our AI Bitcoin consultant, and build the fluency to discuss allocations with clients, partners and colleagues.',
  },
] as const satisfies readonly Feature[];

/**
 * The testimonials' section: shown only when the owner has recorded real clients' words with their
 * permission (Business details in the console); until then the home page has no such section, as
 * invented reviews are unlawful under the Digital Markets, Competition and Consumers Act 2024.
 */
export const testimonialsSection = {
  eyebrow: 'In their words',
  title: 'Trusted by professionals who value clear thinking',
};

export const plansSection = {
  eyebrow: 'Your next step',
  title: 'Choose the path that fits',
  intro: 'Start with a free conversation, practise with AI coaching, or bring the whole team along.',
  allServices: { label: 'Compare all our services', to: '/services' } satisfies CallToAction,
};

/** The spec's plan section: three cards to /book, /ai and /contact. */
export const planCards = [
  {
    title: 'Strategy Session',
    price: prices.strategySession.amount,
    priceNote: prices.strategySession.note,
    description: 'A private video session to map where you are and whether Bitcoin belongs in your plan.',
    features: [
      '45-minute private video call',
      'Handbook, frameworks and guides to keep',
      '30 days of follow-up e-mail support',
    ],
    cta: 'Book Free Session',
    link: '/book',
    primary: false,
    icon: 'video',
  },
  {
    title: 'AI-Powered Bitcoin Coaching',
    // Conflict 1 (see prices.ts): the home card shows the £97/month reading.
    price: prices.aiCoachingPlan.amount,
    priceNote: prices.aiCoachingPlan.note,
    description:
      'Practise client and family conversations about Bitcoin with Elliot, our AI consultant, whenever suits you.',
    features: [
      'Unlimited voice practice sessions',
      'Realistic scenarios for advisers and investors',
      'Progress tracking and feedback',
    ],
    cta: 'Explore AI Coaching',
    link: '/ai',
    primary: true,
    icon: 'bot',
  },
  {
    title: 'Team & Enterprise',
    // Conflict 2 (see prices.ts): the home card follows the services card's reading.
    price: prices.teamEnterprise.amount,
    priceNote: prices.teamEnterprise.note,
    description: 'Training programmes for wealth advisory firms, IFA networks, platforms and CPD providers.',
    features: [
      'Workshops tailored to your clients',
      'Compliance-aware materials',
      'Ongoing support for your advisers',
    ],
    cta: 'Talk to Us',
    link: '/contact',
    primary: false,
    icon: 'users',
  },
] as const satisfies readonly PlanCard[];

export const guideSection = {
  eyebrow: 'Free download',
  title: 'The Bitcoin Wealth Building Guide',
  intro:
    'A concise guide written for UK professionals: what to get right before you buy any Bitcoin, how to size an allocation, and how to hold it securely.',
  points: [
    'The order of operations: cash flow, emergency fund, pension and ISA first',
    'How to think about a 1-5% allocation and rebalancing',
    'UK tax basics: capital gains, record keeping and reporting',
    'Custody options compared, from exchanges to hardware wallets',
  ],
};

export const homeCta = {
  title: 'Ready to make a considered decision?',
  text: 'Book a free, no-obligation strategy session. You will leave with clarity on where you stand, whatever you decide about Bitcoin.',
  primary: { label: 'Book Your Free Strategy Session', to: '/book' } satisfies CallToAction,
  secondary: { label: 'Ask a Question', to: '/contact' } satisfies CallToAction,
};

import { prices } from './prices';
import type { CallToAction, Feature, Seo } from './types';

export const aiSeo: Seo = {
  title: 'AI-Powered Bitcoin Coaching',
  description:
    'Practise real conversations about Bitcoin allocation with Elliot, our AI voice consultant. AI coaching for UK advisers and professionals, available after your free strategy session.',
};

export const aiHero = {
  eyebrow: 'AI coaching',
  title: 'AI-Powered Bitcoin Coaching',
  intro:
    'Knowing the facts is one thing; explaining them calmly to a client, a partner or a sceptical colleague is another. Rehearse those conversations out loud with Elliot, our AI Bitcoin consultant, as often as you like and without an audience.',
  primary: { label: 'Book Your Free Strategy Call', to: '/book' } satisfies CallToAction,
  secondary: { label: 'Request Demo Access', to: '/contact' } satisfies CallToAction,
  // Conflict 1 (see prices.ts): the AI coaching app's price as the services card gives it.
  priceLine: `The AI coaching app costs ${prices.aiCoachingApp.amount} ${prices.aiCoachingApp.note}, and is available after your free strategy session.`,
};

/** Elliot, the AI consultant of the voice simulator. The portrait is our own illustration. */
export const elliot = {
  title: 'Talk to Elliot',
  intro:
    'Try a short voice conversation in your browser. Allow microphone access when asked, and speak as you would to a consultant.',
  avatar: {
    src: '/images/elliot.svg',
    alt: 'Illustrated portrait of Elliot, the AI Bitcoin consultant',
    width: 96,
    height: 96,
  },
  caption: 'Elliot, Bitcoin Consultant',
  quote:
    "Shall we model what a 1-5 % Bitcoin allocation would mean for your portfolio? We'll look at the downside first, then at how you would explain the decision to a client.",
  privacyNote:
    'Your voice is processed by our voice provider only while a call is running. Please do not share personal financial details in a demo call.',
};

export const howItWorks = {
  eyebrow: 'The method',
  title: 'How AI Coaching Works',
  intro: 'Short, focused practice that builds real confidence in a few minutes a day.',
  steps: [
    {
      icon: 'message-circle',
      title: 'Practice Real Scenarios',
      text: 'A cautious client asking about volatility, a partner worried about scams, a board member who wants numbers. Elliot plays them all, by voice.',
    },
    {
      icon: 'target',
      title: 'Build Smart Strategies',
      text: 'Work through allocation sizes, rebalancing rules and custody choices, and learn to explain the reasoning behind each one clearly.',
    },
    {
      icon: 'bar-chart',
      title: 'Track Your Progress',
      text: 'See which topics you handle well and which need work, so each session builds on the last.',
    },
  ] as const satisfies readonly Feature[],
};

export const aiCta = {
  title: 'Start with your free strategy session',
  text: 'The AI coaching app is available to clients after their strategy session, so your practice builds on a plan made for you.',
  primary: { label: 'Book Your Free Strategy Call', to: '/book' } satisfies CallToAction,
  secondary: { label: 'Request Demo Access', to: '/contact' } satisfies CallToAction,
};

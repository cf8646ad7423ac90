import { prices } from './prices';
import type { Faq, Seo } from './types';

export const bookSeo: Seo = {
  title: 'Book your free strategy session',
  description:
    'Book a free 45-minute private video strategy session on Bitcoin for UK professionals, with a resource package and 30 days of e-mail support. Team training available.',
};

export const bookHero = {
  eyebrow: 'Book a session',
  title: 'Book Your Strategy Session',
  intro: 'Choose a format and two times that suit you. We will confirm the details with you within 24 hours.',
};

export { sessionCard } from './session';

export const included = {
  title: "What's Included",
  items: [
    'A 45-minute private strategy session by video, or in person in London',
    'A resource package to keep: handbook, compliance frameworks, investment guides and training materials',
    '30 days of follow-up e-mail support for your questions',
    'Preparation materials one week before your session',
    // Conflict 2 (see prices.ts): the booking page gives team training as a flat fee.
    `Team training for up to 10 people: ${prices.teamTrainingFlatFee.amount} flat fee`,
  ],
};

export const faqSection = { title: 'Frequently Asked Questions' };

/** The spec's FAQ; the page also publishes it as FAQPage structured data. */
export const faqs: readonly Faq[] = [
  {
    question: 'What if I need to cancel or reschedule?',
    answer:
      'You can reschedule any session up to 48 hours before it starts. Paid sessions cancelled with 7 or more days of notice are refunded in full.',
  },
  {
    question: 'Is this regulated financial advice?',
    answer:
      'No. Our sessions are educational only and are not regulated financial advice. We do not recommend specific investments or products; for personal advice, speak to an FCA-authorised adviser.',
  },
  {
    question: 'Can my firm pay on invoice?',
    answer: 'Yes. We can invoice your firm directly; add the billing details in the notes when you book.',
  },
  {
    question: 'Is it suitable for complete beginners?',
    answer:
      'Yes. Many clients start with no knowledge of Bitcoin at all. We begin from your level and explain everything in plain English.',
  },
];

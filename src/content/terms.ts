import { prices } from './prices';
import { site } from './site';
import type { LegalSection, Seo } from './types';

export const termsSeo: Seo = {
  title: 'Terms of service',
  description: `The terms for using the ${site.brand} website and services: educational content only, not regulated financial advice.`,
};

export const termsHero = {
  eyebrow: 'Legal',
  title: 'Terms of Service',
  intro:
    'The terms that apply when you use this website or book one of our sessions. Please read them; they are short.',
  updated: '2025-06-01',
};

/** OWNER TO CONFIRM before launch with the business's own legal adviser. */
export const termsSections: readonly LegalSection[] = [
  {
    id: 'educational-only',
    heading: 'Educational content only, not regulated financial advice',
    blocks: [
      {
        kind: 'p',
        text: `Everything ${site.brand} provides, on this website, in sessions, training, the AI coaching app, articles, guides, masterclasses and e-mails, is educational content only, not regulated financial advice. We are not authorised by the Financial Conduct Authority to give personal investment advice, and nothing we say is a recommendation to buy, sell or hold any investment.`,
      },
      {
        kind: 'p',
        text: 'Bitcoin and other cryptoassets are high-risk and largely unregulated in the UK. Their value can fall sharply and you could lose all the money you put in. You are not protected by the Financial Services Compensation Scheme or the Financial Ombudsman Service. Before making investment decisions, consider speaking to an FCA-authorised financial adviser.',
      },
    ],
  },
  {
    id: 'about-us',
    heading: 'Who we are',
    blocks: [
      {
        kind: 'p',
        text: `This website is run by ${site.brand}. Our company details, office address and contact e-mail are on our Contact page.`,
      },
    ],
  },
  {
    id: 'using-the-site',
    heading: 'Using this website',
    blocks: [
      {
        kind: 'ul',
        items: [
          'You may use the site for your own information and education, and share links to it.',
          "Please do not misuse the forms, attempt to break the site's security or copy its content in bulk.",
          'We work to keep the information accurate and up to date, but markets, tax rules and regulation change; check anything important before acting on it.',
          'Links to other websites are provided for convenience; we are not responsible for their content.',
        ],
      },
    ],
  },
  {
    id: 'bookings',
    heading: 'Sessions, bookings and cancellations',
    blocks: [
      {
        kind: 'ul',
        items: [
          'The strategy session is free. A booking is a request: we confirm the date and time with you within 24 hours.',
          'You can reschedule any session up to 48 hours before it starts.',
          'Paid sessions and training cancelled with 7 or more days of notice are refunded in full.',
          `Team training prices are agreed in writing before any work starts (the booking page shows team training for up to 10 people at a ${prices.teamTrainingFlatFee.amount} flat fee). Firms can pay on invoice.`,
          'Nothing in these terms affects your statutory rights as a consumer.',
        ],
      },
    ],
  },
  {
    id: 'ai-coaching',
    heading: 'AI coaching and the voice simulator',
    blocks: [
      {
        kind: 'p',
        text: "Elliot is an AI system, not a person and not an adviser. Its answers can be incomplete or wrong and are provided for practice only. Do not share personal financial details or other people's information in a call. The AI coaching app is available to clients after their strategy session, on the terms and price shown when you subscribe.",
      },
    ],
  },
  {
    id: 'intellectual-property',
    heading: 'Our content',
    blocks: [
      {
        kind: 'p',
        text: `The text, guides, training materials and design of this site belong to ${site.brand} or its licensors. You may download and print materials for your own use; please ask before reusing them commercially or in your firm's training.`,
      },
    ],
  },
  {
    id: 'liability',
    heading: 'Our responsibility to you',
    blocks: [
      {
        kind: 'p',
        text: 'We are responsible for losses you suffer that are a foreseeable result of our breaking these terms or failing to use reasonable care and skill. We are not responsible for investment decisions you make or their results, which remain yours. We do not exclude liability where the law does not allow it, including for death or personal injury caused by negligence, or for fraud.',
      },
    ],
  },
  {
    id: 'law',
    heading: 'Changes and governing law',
    blocks: [
      {
        kind: 'p',
        text: 'We may update these terms; the version on this page on the day you use the site or book applies. These terms are governed by the law of England and Wales. If you live in Scotland or Northern Ireland you may also bring proceedings in your local courts.',
      },
    ],
  },
];

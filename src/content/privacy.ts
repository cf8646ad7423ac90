import { ANALYTICS_PRIVACY } from './analytics';
import { retentionNotice } from './retention';
import { site } from './site';
import type { LegalSection, Seo } from './types';

export const privacySeo: Seo = {
  title: 'Privacy notice',
  description: `How ${site.brand} collects, uses and protects your personal data under UK GDPR, and how to use your rights.`,
};

export const privacyHero = {
  eyebrow: 'Legal',
  title: 'Privacy Notice',
  intro:
    'This notice explains, in plain English, what personal data we collect through this website, why, what gives us the right to use it, how long we keep it, who receives it and what your rights are.',
  updated: '2026-11-28',
};

/**
 * OWNER TO CONFIRM before launch: the company details, the providers named here and the
 * retention periods must match how the business actually runs.
 */
export const privacySections: readonly LegalSection[] = [
  {
    id: 'who-we-are',
    heading: 'Who we are',
    blocks: [
      {
        kind: 'p',
        text: `${site.brand} ("we", "us") runs this website and is the controller of the personal data described here. Our company details, postal address and contact e-mail are on our Contact page; you can reach us there about anything in this notice.`,
      },
    ],
  },
  {
    id: 'what-we-collect',
    heading: 'What we collect, why, and on what lawful basis',
    blocks: [
      {
        kind: 'p',
        text: 'We only collect what you type into one of our forms, plus the minimum technical data needed to run the site securely. Each form collects the following.',
      },
      {
        kind: 'table',
        caption: 'Personal data collected by each form',
        head: ['Form', 'What we collect', 'Why we use it', 'Lawful basis (UK GDPR Article 6)'],
        rows: [
          [
            'Wealth Building Guide download',
            'Name, e-mail address, role or company, and your consent',
            'To send you the guide and occasional e-mails about our education and events',
            'Consent, given with the checkbox; you can withdraw it at any time',
          ],
          [
            'The Smart Money Newsletter',
            'First name, last name and e-mail address',
            'To send you the monthly newsletter',
            'Consent; every newsletter has an unsubscribe link',
          ],
          [
            'Contact form',
            'First name, last name, e-mail address, company, subject, your message, and your consent',
            'To read and answer your enquiry',
            'Consent, given with the checkbox, and our legitimate interest in answering the people who write to us',
          ],
          [
            'Strategy session booking',
            'Session format, preferred dates and times, first name, last name, e-mail address, phone number, company, job title and any notes you add',
            'To arrange, confirm and prepare your session, and to invoice your firm if you ask us to',
            'Steps you ask us to take before entering into an agreement with you, and that agreement once made',
          ],
          [
            'AI voice simulator (Elliot)',
            'Your voice and the conversation, only while you choose to run a call',
            'To let you practise a conversation with our AI consultant',
            'Consent: a call only starts when you press the button and allow your microphone',
          ],
        ],
      },
      {
        kind: 'p',
        text: 'Technical data: to keep the forms safe from abuse, our server briefly keeps a scrambled (keyed hash) form of your IP address to limit repeated submissions, and stores the browser description your browser sends (its user agent) with your submission, on the basis of our legitimate interest in protecting the service. Our logs record which pages were requested and whether they worked, never your name, e-mail address, message or IP address.',
      },
      {
        kind: 'p',
        text: 'We do not use advertising or analytics cookies, and we do not track you across other websites.',
      },
    ],
  },
  {
    id: 'counting-visits',
    heading: ANALYTICS_PRIVACY.heading,
    blocks: ANALYTICS_PRIVACY.paragraphs.map((text) => ({ kind: 'p' as const, text })),
  },
  {
    id: 'retention',
    heading: 'How long we keep it',
    blocks: [
      {
        kind: 'ul',
        items: [...retentionNotice()],
      },
    ],
  },
  {
    id: 'recipients',
    heading: 'Who receives your data',
    blocks: [
      {
        kind: 'p',
        text: 'We never sell your data or share it for marketing. Only these recipients process it for us, under contracts that require them to keep it safe and use it only on our instructions:',
      },
      {
        kind: 'ul',
        items: [
          'Our e-mail delivery provider, which sends the guide, confirmations, newsletters and our replies.',
          'Our hosting provider, which runs the website, its database and its backups.',
          'Our voice AI provider (Vapi, with its real-time audio partner Daily), which processes your voice only during a simulator call you start.',
          'Our accountants, for bookings that are invoiced.',
          'Authorities such as HMRC or the police, only when the law requires us to.',
        ],
      },
      {
        kind: 'p',
        text: 'The voice provider is based in the United States. Where data leaves the UK we rely on the safeguards UK law recognises: UK adequacy regulations, such as the UK Extension to the EU-US Data Privacy Framework, or the International Data Transfer Addendum issued by the ICO.',
      },
    ],
  },
  {
    id: 'your-rights',
    heading: 'Your rights and how to use them',
    blocks: [
      { kind: 'p', text: 'Under UK data protection law you have the right to:' },
      {
        kind: 'ul',
        items: [
          'ask for a copy of the personal data we hold about you (access);',
          'have inaccurate data corrected (rectification);',
          'have your data deleted (erasure);',
          'ask us to limit how we use it (restriction);',
          'object to our use of it where we rely on legitimate interests;',
          'receive the data you gave us in a portable format (portability);',
          'withdraw your consent at any time, without affecting what we did before. Every marketing e-mail has an unsubscribe link.',
        ],
      },
      {
        kind: 'p',
        text: `To use any of these rights, e-mail or write to us at the addresses on our Contact page, or send us a message with its form. It is free, and we will reply within one month. We may ask you to confirm your identity first.`,
      },
    ],
  },
  {
    id: 'complaints',
    heading: 'Complaints',
    blocks: [
      {
        kind: 'p',
        text: "If you are unhappy with how we have handled your data, please tell us first so we can put it right. You also have the right to complain to the Information Commissioner's Office (ICO), the UK regulator for data protection: online at ico.org.uk/make-a-complaint or by phone on 0303 123 1113.",
      },
    ],
  },
  {
    id: 'changes',
    heading: 'Changes to this notice',
    blocks: [
      {
        kind: 'p',
        text: 'If we change how we use personal data, we will update this notice and the date at the top of this page before the change takes effect.',
      },
    ],
  },
];

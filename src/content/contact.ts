import { prices } from './prices';
import { site } from './site';
import type { Seo } from './types';

export const contactSeo: Seo = {
  title: 'Contact us',
  description: `Contact ${site.brand} about Bitcoin training, consulting, speaking or partnerships. We reply within 1-2 business days.`,
};

export const contactHero = {
  eyebrow: 'Contact',
  title: 'Contact Us',
  intro:
    'Questions about training for your firm, a speaking invitation or a partnership idea? Send us a message and we will reply within 1-2 business days.',
};

export const messageSection = {
  title: 'Send Us a Message',
  intro: 'All fields are required. We use your details only to reply to you.',
};

export const contactInfo = {
  title: 'Contact Information',
  emailLabel: 'E-mail',
  phoneLabel: 'Phone',
  phoneHours: 'Monday to Friday, 9am-5pm',
  officeLabel: 'UK office',
  /** Said until the owner sets the business's details (no stand-in address is ever shown). */
  useForm: 'Please use the form to reach us; we reply within 1-2 business days.',
};

/** A mailto link to the business's contact e-mail with a subject; the form when none is set. */
export const mailtoOr = (email: string | undefined, subject: string) =>
  email ? `mailto:${email}?subject=${encodeURIComponent(subject)}` : '#message-title';

export const discoveryCall = {
  title: 'Schedule a Discovery Call',
  badge: `${prices.discoveryCall.amount}, ${prices.discoveryCall.note}`,
  text: 'A short call to see how we can help you or your team, with no obligation. E-mail us two or three times that suit you and we will confirm one.',
  cta: {
    label: 'Book a Call',
    subject: 'Discovery call request',
  },
};

export const partnerships = {
  title: 'Partnership Opportunities',
  text: 'We work with wealth advisory firms, IFA networks, wealth platforms, CPD providers and educational institutions on training programmes, events and co-created content.',
  cta: {
    label: 'Discuss Partnerships',
    subject: 'Partnership enquiry',
  },
};

/** The contact form's words (spec sections 2, 7 and 8). */
export const contactForm = {
  label: 'Send Us a Message',
  fields: {
    firstName: 'First Name',
    lastName: 'Last Name',
    email: 'Email',
    company: 'Company',
    subject: 'Subject',
    message: 'Message',
  },
  subjectPlaceholder: 'Please select',
  submit: 'Send Message',
  submitting: 'Sending...',
  sent: 'Message sent successfully!',
  failed: 'Failed to send message. Please try again.',
  thanks: {
    heading: 'Thank You!',
    text: "We've received your message and will respond within 1-2 business days.",
    again: 'Send Another Message',
  },
};

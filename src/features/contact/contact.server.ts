/**
 * The contact form on the server: the owner receives the message, with Reply-To set to the
 * visitor so answering is one click. Nothing is sent to the visitor (the spec promises a reply
 * within 1-2 business days, not an automatic acknowledgement).
 */
import { contactConsentVersions } from '~/content/consents';
import { site } from '~/content/site';
import { defineFormHandler } from '~/server/kit/http/form-handler';
import type { EmailContent } from '~/server/kit/mail/layout';
import { submissionNotice } from '~/server/kit/mail/templates';
import { subjectLabel } from './contact-fields';
import { ContactSchema, type ContactValues } from './contact-schema';

export function contactOwnerEmail(data: ContactValues, submissionId: string): EmailContent {
  const name = `${data.firstName} ${data.lastName}`;
  return submissionNotice({
    preheader: `${subjectLabel(data.subject)} enquiry from ${name}`,
    heading: 'New message from the contact form',
    fields: [
      ['Name', name],
      ['Email', data.email],
      ['Company', data.company || 'Not provided'],
      ['Subject', subjectLabel(data.subject)],
    ],
    more: [
      { type: 'quote', text: data.message },
      {
        type: 'paragraph',
        text: 'Reply to this e-mail to answer directly. We promise a reply within 1-2 business days.',
      },
    ],
    submissionId,
  });
}

export const contactHandler = defineFormHandler({
  schema: ContactSchema,
  // The spec's browser limit, enforced where it cannot be bypassed.
  rateLimit: { max: 3, windowMs: 5 * 60_000 },
  consent: (data) => contactConsentVersions[data.consentVersion],
  words: { subject: subjectLabel },
  compose({ data, submissionId, config, sendEmail }) {
    sendEmail({
      kind: 'contact.owner',
      to: config.ownerEmail,
      replyTo: data.email,
      subject: `[${site.brand}] ${subjectLabel(data.subject)} enquiry from ${data.firstName} ${data.lastName}`,
      content: contactOwnerEmail(data, submissionId),
    });
  },
});

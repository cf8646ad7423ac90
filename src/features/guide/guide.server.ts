/**
 * The guide download on the server: the visitor receives the download link (an absolute URL
 * on PUBLIC_URL), the owner receives the lead.
 */
import { guideConsentVersions } from '~/content/consents';
import { site } from '~/content/site';
import { defineFormHandler } from '~/server/kit/http/form-handler';
import { greeting } from '~/server/kit/mail/greeting';
import type { EmailContent } from '~/server/kit/mail/layout';
import { submissionNotice } from '~/server/kit/mail/templates';
import { GUIDE_PDF_PATH, GUIDE_TITLE } from './guide-file';
import { GuideSchema, type GuideValues } from './guide-schema';

export function guideVisitorEmail(data: GuideValues, downloadUrl: string): EmailContent {
  return {
    preheader: `Your free ${GUIDE_TITLE} is ready to download.`,
    heading: `Your ${GUIDE_TITLE}`,
    blocks: [
      { type: 'paragraph', text: greeting(data.firstName) },
      {
        type: 'paragraph',
        text: `Thank you for asking for the ${site.brand} ${GUIDE_TITLE}. It covers the foundations to put in place first, pensions and ISAs, what Bitcoin is and its risks, sizing a small allocation, custody and UK tax basics.`,
      },
      { type: 'button', label: 'Download the guide (PDF)', url: downloadUrl },
      { type: 'paragraph', text: 'If you have questions after reading it, simply reply to this e-mail.' },
    ],
    footer: [
      {
        type: 'small',
        text: 'You receive this because you requested the guide on our website. You can unsubscribe from our e-mails at any time by replying "unsubscribe".',
      },
    ],
  };
}

export function guideOwnerEmail(data: GuideValues, submissionId: string): EmailContent {
  return submissionNotice({
    preheader: `${data.firstName} downloaded the ${GUIDE_TITLE}.`,
    heading: 'New guide download',
    fields: [
      ['Name', data.firstName],
      ['Email', data.email],
      ['Role or company', data.company],
      ['Consent', 'Agreed to receive e-mail communications'],
    ],
    submissionId,
  });
}

export const guideHandler = defineFormHandler({
  schema: GuideSchema,
  rateLimit: { max: 5, windowMs: 5 * 60_000 },
  consent: (data) => guideConsentVersions[data.consentVersion],
  compose({ data, submissionId, config, links, sendEmail }) {
    const visitor = guideVisitorEmail(data, links.absolute(GUIDE_PDF_PATH));
    const owner = guideOwnerEmail(data, submissionId);
    sendEmail(
      {
        kind: 'guide.visitor',
        audience: 'visitor',
        to: data.email,
        replyTo: config.ownerEmail,
        subject: `Your ${site.brand} ${GUIDE_TITLE}`,
        content: visitor,
      },
      {
        kind: 'guide.owner',
        to: config.ownerEmail,
        replyTo: data.email,
        subject: `[${site.brand}] Guide download: ${data.firstName}`,
        content: owner,
      },
    );
  },
});

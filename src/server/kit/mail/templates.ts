/**
 * Pieces that the e-mails of several features are made of: the owner's notice of a new
 * submission, and a calendar file attached to an invitation or its cancellation.
 */
import type { EmailBlock, EmailContent } from './layout';
import type { OutgoingEmail } from './outbox';

/**
 * The owner's e-mail about a new submission: what the visitor typed as label/value rows, any
 * further blocks, and the submission's id in the footer (to find it in the console).
 */
export function submissionNotice({
  preheader,
  heading,
  fields,
  more = [],
  submissionId,
}: {
  preheader: string;
  heading: string;
  fields: readonly (readonly [label: string, value: string])[];
  more?: readonly EmailBlock[];
  submissionId: string;
}): EmailContent {
  return {
    preheader,
    heading,
    blocks: [{ type: 'fields', rows: fields }, ...more],
    footer: [{ type: 'small', text: `Submission ${submissionId}` }],
  };
}

export type Attachment = NonNullable<OutgoingEmail['attachments']>[number];

/**
 * An iCalendar file as an attachment: `filename` for an invitation or its update (REQUEST), and
 * `cancellation.ics` for the message that removes it from the calendar (CANCEL).
 */
export function calendarAttachment(ics: string, method: 'REQUEST' | 'CANCEL', filename: string): Attachment {
  return {
    filename: method === 'CANCEL' ? 'cancellation.ics' : filename,
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: ics,
    encoding: 'utf8',
  };
}

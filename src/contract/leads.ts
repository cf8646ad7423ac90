/**
 * A lead as something to work on (decision 040): where it stands (new, replied, handled), the
 * notes kept about it, and a reply e-mailed to the lead from the console. The routes are a
 * helper's as well as the owner's: answering leads is what a helper is for (decision 032). The
 * reply's form in the console and the server read the same schema, so its limits live here.
 */
import { text } from '~/lib/validation';
import { z } from '~/lib/zod';
import { one } from './inbox';
import { LEAD_STATES, type LeadState } from './lead-states';
import { route } from './route';

export { LEAD_STATES, leadStateLabels, type LeadState } from './lead-states';

export const LEAD_LIMITS = { note: 4000, subject: 150, reply: 10_000 } as const;

/** Text a person typed (validation.ts's rules: no control characters a database or header refuses). */
const typed = (max: number, required: string, multiline: boolean) =>
  text({
    required,
    max,
    multiline,
    tooLong: `Please keep this under ${max.toLocaleString('en-GB')} characters.`,
  });

export const leadStateBody = z.object({
  state: z.enum(LEAD_STATES, { error: 'Please choose new, replied or handled.' }),
});

export const leadNoteBody = z.object({
  text: typed(LEAD_LIMITS.note, 'Please write the note.', true),
});

export const leadReplyBody = z.object({
  // One line, without bidirectional controls: a line break in a subject would be a header of its own.
  subject: typed(LEAD_LIMITS.subject, 'Please give the reply a subject.', false),
  text: typed(LEAD_LIMITS.reply, 'Please write the reply.', true),
  /** Quote the lead's own message below the reply, as an e-mail program does. */
  quote: z.boolean({ error: 'Please say whether to quote their message.' }).default(true),
});

export type LeadNoteBody = z.input<typeof leadNoteBody>;
export type LeadReplyBody = z.input<typeof leadReplyBody>;

/** A note or a reply, as the lead's page lists them (oldest first). */
export type LeadNote = {
  id: number;
  kind: 'note' | 'reply';
  /** Who wrote it, by name. */
  who: string;
  at: string;
  subject: string | null;
  text: string;
  /** A reply's e-mail: its delivery's id (the lead's e-mails list it). */
  emailId: number | null;
};

export const NOT_A_LEAD = 'This submission is in spam: move it out of spam before answering it.';
export const NO_ADDRESS = 'This submission has no e-mail address to reply to.';

export const leadRoutes = {
  /** Sets where the lead stands. */
  state: route<{ ok: true; state: LeadState }>()({
    method: 'POST',
    path: '/submissions/:id/state',
    ...one,
    body: leadStateBody,
    role: 'helper',
  }),
  /** Keeps a note about the lead. */
  note: route<{ ok: true; note: LeadNote }>()({
    method: 'POST',
    path: '/submissions/:id/notes',
    ...one,
    body: leadNoteBody,
    role: 'helper',
  }),
  /** E-mails a reply to the lead's address from the business's, and marks the lead replied. */
  reply: route<{ ok: true; note: LeadNote }>()({
    method: 'POST',
    path: '/submissions/:id/reply',
    ...one,
    body: leadReplyBody,
    role: 'helper',
  }),
};

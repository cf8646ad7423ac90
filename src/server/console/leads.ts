/**
 * Leads to work on (decision 040): where each lead stands ('new' until someone replies or puts it
 * aside), the notes the owner and helpers keep about it, and a reply e-mailed to the lead from the
 * console. A reply is an outbox row of the lead's submission, so it is sent, retried and shown
 * like every other e-mail of the lead (its delivery on the lead's page), and goes with the lead
 * when the lead is erased. Each action writes its audit row in its own transaction; the audit
 * names the submission, never the lead's address or words.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { site } from '~/content/site';
import { leadRoutes, NO_ADDRESS, NOT_A_LEAD, type LeadNote, type LeadState } from '~/contract/leads';
import { NO_SUCH_SUBMISSION } from '~/contract/inbox';
import { peopleCopy } from '~/content/console';
import { formatLongDate, ukDateOf } from '~/lib/uk-dates';
import { audit } from '../kit/audit';
import type { Config } from '../kit/config';
import type { Queryable, Tx } from '../kit/db/client';
import { rowsOf } from '../kit/db/rows';
import { submissions } from '../kit/db/schema';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';
import type { EmailBlock, EmailContent } from '../kit/mail/layout';
import { enqueueEmails } from '../kit/mail/outbox';
import { definePersonalData, rowsOfSubmissions } from '../kit/personal-data';
import { nameOfActor } from './audit';
import { parsedFields } from './inbox';
import { leadNotes } from './tables';

type NoteRow = typeof leadNotes.$inferSelect;

function noteOf(config: Pick<Config, 'consoleUsers'>, row: NoteRow): LeadNote {
  return {
    id: row.id,
    kind: row.kind,
    who: nameOfActor(config, row.author),
    at: row.createdAt.toISOString(),
    subject: row.subject,
    text: row.body,
    emailId: row.outboxId,
  };
}

/** The notes and replies of one lead, oldest first. */
export async function notesOfLead(
  db: Queryable,
  config: Pick<Config, 'consoleUsers'>,
  submissionId: string,
): Promise<LeadNote[]> {
  const rows = await db
    .select()
    .from(leadNotes)
    .where(eq(leadNotes.submissionId, submissionId))
    .orderBy(asc(leadNotes.createdAt), asc(leadNotes.id));
  return rows.map((row) => noteOf(config, row));
}

/**
 * Leads (not spam, and leads: decision 054) in each of the last `weeks` UK weeks (from Monday), oldest first, the current
 * week (so far) last; a week with none is there with 0. Read with the inbox's index on received_at.
 */
export async function leadsByWeek(db: Queryable, weeks: number): Promise<{ start: string; count: number }[]> {
  const rows = rowsOf<{ start: string; count: number }>(
    await db.execute(sql`
      with bounds as (
        select date_trunc('week', now() at time zone 'Europe/London')::date as this_week
      ),
      series as (
        select (this_week - (7 * n))::date as start from bounds, generate_series(0, ${weeks - 1}) as n
      ),
      counted as (
        select date_trunc('week', received_at at time zone 'Europe/London')::date as start, count(*)::int as count
        from submissions, bounds
        where not spam and lead_state is not null
          and received_at >= ((this_week - 7 * (${weeks} - 1))::timestamp at time zone 'Europe/London')
        group by 1
      )
      select to_char(series.start, 'YYYY-MM-DD') as start, coalesce(counted.count, 0)::int as count
      from series left join counted using (start)
      order by series.start`),
  );
  return rows.map((row) => ({ start: String(row.start), count: Number(row.count) }));
}

/** The lead, locked for the action: 404 if gone, 409 if it is in spam. */
async function leadFor(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      spam: submissions.spam,
      fields: submissions.fields,
      receivedAt: submissions.receivedAt,
      state: submissions.leadState,
    })
    .from(submissions)
    .where(eq(submissions.id, id))
    .for('update');
  if (!row) throw new Refusal(404, { error: NO_SUCH_SUBMISSION });
  if (row.spam) throw new Refusal(409, { error: NOT_A_LEAD });
  return { ...row, fields: parsedFields(row.fields) };
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Paragraphs of what the owner wrote: a blank line starts a new one. */
function paragraphs(body: string): EmailBlock[] {
  return body
    .split(/\r?\n\s*\r?\n/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => ({ type: 'paragraph', text: part }));
}

/**
 * The reply as an e-mail: the owner's words, then (if asked) the lead's own message quoted under
 * "On <date>, <name> wrote:", as an e-mail program quotes. It goes to the address the lead typed:
 * the person who reads the reply is shown only what they sent themselves and what the owner wrote
 * after reading it.
 */
export function replyEmail(
  lead: { fields: Record<string, unknown>; receivedAt: Date },
  reply: { subject: string; text: string; quote: boolean },
): EmailContent {
  const name = [text(lead.fields.firstName), text(lead.fields.lastName)].filter(Boolean).join(' ');
  const theirs = text(lead.fields.message) || text(lead.fields.notes);
  const quoted: EmailBlock[] =
    reply.quote && theirs !== ''
      ? [
          {
            type: 'small',
            text: `On ${formatLongDate(ukDateOf(lead.receivedAt))}, ${name || 'you'} wrote:`,
          },
          { type: 'quote', text: theirs },
        ]
      : [];
  return {
    preheader: reply.text.replace(/\s+/g, ' ').slice(0, 120),
    heading: reply.subject,
    blocks: [...paragraphs(reply.text), ...quoted],
    footer: [
      {
        type: 'small',
        text: `You are receiving this e-mail because you wrote to ${site.brand} through our website. Reply to it to answer us.`,
      },
    ],
  };
}

/** The address a lead's answer to a reply goes to: the business's contact e-mail, if set. */
export type BusinessReplyTo = (q: Queryable) => Promise<string | null>;

/**
 * Leads: set where one stands, keep a note, reply by e-mail. A helper may do all three. A reply
 * is sent from the site's sending address (MAIL_FROM, which the domain's SPF and DKIM cover) with
 * Reply-To the contact e-mail of Business details, or the address of whoever replied when none
 * is set, so the lead's answer comes to the business's mailbox.
 */
export const leadsArea =
  (businessReplyTo: BusinessReplyTo): ConsoleArea =>
  (routes, { db, config, wakeOutbox }) => {
    routes.on(leadRoutes.state, async ({ params, body, owner }) => {
      const state: LeadState = body.state;
      await db.transaction(async (tx) => {
        const lead = await leadFor(tx, params.id);
        if (lead.state === state) return;
        await tx.update(submissions).set({ leadState: state }).where(eq(submissions.id, params.id));
        await audit(tx, owner.email, 'submission.state', params.id, { state });
      });
      return { ok: true as const, state };
    });

    routes.on(leadRoutes.note, async ({ params, body, owner }) => {
      const row = await db.transaction(async (tx) => {
        await leadFor(tx, params.id);
        const [note] = await tx
          .insert(leadNotes)
          .values({ submissionId: params.id, kind: 'note', author: owner.email, body: body.text })
          .returning();
        await audit(tx, owner.email, 'submission.note', params.id);
        return note!;
      });
      return { ok: true as const, note: noteOf(config, row) };
    });

    routes.on(leadRoutes.reply, async ({ params, body, owner }) => {
      const row = await db.transaction(async (tx) => {
        const lead = await leadFor(tx, params.id);
        const to = text(lead.fields.email);
        if (to === '') throw new Refusal(409, { error: NO_ADDRESS });
        const replyTo = (await businessReplyTo(tx)) ?? owner.email;
        const [emailId] = await enqueueEmails(tx, params.id, [
          { kind: 'lead.reply', to, replyTo, subject: body.subject, content: replyEmail(lead, body) },
        ]);
        const [note] = await tx
          .insert(leadNotes)
          .values({
            submissionId: params.id,
            kind: 'reply',
            author: owner.email,
            subject: body.subject,
            body: body.text,
            outboxId: emailId ?? null,
          })
          .returning();
        await tx.update(submissions).set({ leadState: 'replied' }).where(eq(submissions.id, params.id));
        await audit(tx, owner.email, 'submission.reply', params.id);
        return note!;
      });
      wakeOutbox();
      return { ok: true as const, note: noteOf(config, row) };
    });
  };

/**
 * The notes and replies about a lead are theirs as much as the lead is: found, listed, exported
 * and erased with their submissions (the rows go by cascade), kept as long as the submission.
 */
export const leadNotesData = definePersonalData<NoteRow>({
  key: 'leadNotes',
  exportAs: 'notes and replies',
  title: peopleCopy.leadNotes,
  noun: 'notes and replies',
  rows: {
    find: (q, person) => rowsOfSubmissions(q, leadNotes, leadNotes.submissionId, person),
    show: (note) => ({
      text: note.kind === 'reply' ? `Reply: ${note.subject ?? ''}` : 'Note',
      at: note.createdAt.toISOString(),
      submissionId: note.submissionId,
    }),
    export: ({ author: _author, outboxId: _outbox, ...note }) => note,
  },
});

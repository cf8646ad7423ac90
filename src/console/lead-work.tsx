/**
 * A lead as something to work on (decision 040), on the submission's page: where it stands with a
 * button to put it aside or back, the notes and replies kept with it, a note kept for the console,
 * and a reply e-mailed to the lead from the business's address (its delivery is then listed with
 * the lead's other e-mails). The reply's limits come from the route's own schema.
 */
import { useId, useState, type FormEvent } from 'react';
import { deliveriesCopy, leadCopy as copy } from '~/content/console';
import type { SubmissionDetail } from '~/contract/console';
import { LEAD_LIMITS, leadStateLabels, type LeadNote, type LeadState } from '~/contract/leads';
import { post } from '~/components/console/http';
import { useAction, useNotify } from '~/components/console/notices';
import { DateTime } from '~/components/console/dates';
import { Field, SubmitButton, TextField } from '~/components/console/fields';
import { Badge, IfAny, Section } from '~/components/console/page';

const TONES = { new: 'warn', replied: 'good', handled: 'neutral' } as const;

/** Where a lead stands, as a badge: new (to answer), replied, handled; nothing for no lead. */
export function LeadBadge({ state }: { state: LeadState | null }) {
  return state === null ? null : <Badge tone={TONES[state]}>{leadStateLabels[state]}</Badge>;
}

const base = (id: string) => `/submissions/${encodeURIComponent(id)}`;

/**
 * "Mark as handled" for a lead new or replied to, "Mark as new" for one put aside; nothing for a
 * submission that is no lead (a reply from the console makes it one).
 */
export function LeadStateButton({ item, reload }: { item: SubmissionDetail; reload: () => void }) {
  const { busy, run } = useAction();
  if (item.state === null) return null;
  const next = item.state === 'handled' ? 'new' : 'handled';
  return (
    <button
      type="button"
      className="btn btn-secondary"
      disabled={busy !== null}
      onClick={() =>
        void run(
          'state',
          () => post(`${base(item.id)}/state`, { state: next }),
          () => (next === 'handled' ? copy.markedHandled : copy.markedNew),
        ).then((done) => done && reload())
      }
    >
      {next === 'handled' ? copy.markHandled : copy.markNew}
    </button>
  );
}

function NoteItem({ note, emails }: { note: LeadNote; emails: SubmissionDetail['emails'] }) {
  const email = note.emailId === null ? undefined : emails.find((e) => e.id === note.emailId);
  return (
    <li className="border-l-4 border-ink-200 pl-3">
      <p className="text-sm text-ink-700">
        <span className="font-medium text-ink-900">{note.kind === 'reply' ? copy.reply : copy.note}</span>{' '}
        {copy.by(note.who)}, <DateTime iso={note.at} />
        {email ? ` · ${copy.replyDelivery(deliveriesCopy.statuses[email.status] ?? email.status)}` : ''}
      </p>
      {note.subject ? <p className="mt-1 font-medium wrap-anywhere text-ink-900">{note.subject}</p> : null}
      <p className="mt-1 wrap-anywhere whitespace-pre-wrap text-ink-900">{note.text}</p>
    </li>
  );
}

/** A form that posts to one of the lead's routes and shows the server's field errors. */
function useLeadForm(path: string, success: string, reload: () => void) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  async function send(body: unknown): Promise<boolean> {
    if (busy) return false;
    setBusy(true);
    const result = await post(path, body);
    setBusy(false);
    if (!result.ok) {
      if (result.status === 401) return false;
      setErrors(result.fieldErrors ?? {});
      notify({ tone: 'error', text: result.error });
      return false;
    }
    setErrors({});
    notify({ tone: 'success', text: success });
    reload();
    return true;
  }
  return { busy, errors, send };
}

function NoteForm({ id, reload }: { id: string; reload: () => void }) {
  const [text, setText] = useState('');
  const form = useLeadForm(`${base(id)}/notes`, copy.noteSaved, reload);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (await form.send({ text })) setText('');
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="mt-4">
      <h3 className="text-lg font-semibold text-ink-900">{copy.noteHeading}</h3>
      <Field label={copy.noteText} hint={copy.noteHint} error={form.errors.text} validated required>
        {(control) => (
          <textarea
            {...control}
            name="note"
            rows={3}
            maxLength={LEAD_LIMITS.note}
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="field-input"
          />
        )}
      </Field>
      <SubmitButton busy={form.busy} label={copy.addNote} busyLabel={copy.savingNote} />
    </form>
  );
}

function ReplyForm({ item, reload }: { item: SubmissionDetail; reload: () => void }) {
  const [subject, setSubject] = useState<string>(copy.defaultSubject);
  const [text, setText] = useState('');
  const [quote, setQuote] = useState(true);
  const quoteId = useId();
  const form = useLeadForm(`${base(item.id)}/reply`, copy.sent, reload);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (await form.send({ subject, text, quote })) setText('');
  }
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="mt-6">
      <h3 className="text-lg font-semibold text-ink-900">{copy.replyHeading}</h3>
      <p className="mt-1 mb-3 text-sm wrap-anywhere text-ink-700">{copy.replyIntro(item.email)}</p>
      <TextField
        label={copy.subject}
        name="subject"
        value={subject}
        onChange={setSubject}
        maxLength={LEAD_LIMITS.subject}
        error={form.errors.subject}
        validated
        required
      />
      <Field label={copy.replyText} error={form.errors.text} validated required>
        {(control) => (
          <textarea
            {...control}
            name="reply"
            rows={8}
            maxLength={LEAD_LIMITS.reply}
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="field-input"
          />
        )}
      </Field>
      <p className="mb-4 flex items-center gap-2">
        <input
          id={quoteId}
          type="checkbox"
          className="h-5 w-5"
          checked={quote}
          onChange={(e) => setQuote(e.target.checked)}
        />
        <label htmlFor={quoteId}>{copy.quote}</label>
      </p>
      <SubmitButton busy={form.busy} label={copy.send} busyLabel={copy.sending} />
    </form>
  );
}

/** The lead's notes and replies, and the forms to add one: not for a submission held as spam. */
export function LeadWork({ item, reload }: { item: SubmissionDetail; reload: () => void }) {
  return (
    <Section id="lead-work" heading={copy.workHeading} className="card mt-6">
      <IfAny items={item.notes} none={copy.noNotes}>
        <ul className="mt-2 space-y-4">
          {item.notes.map((note) => (
            <NoteItem key={note.id} note={note} emails={item.emails} />
          ))}
        </ul>
      </IfAny>
      {item.spam ? (
        <p className="mt-4 text-ink-700">{copy.noReplyInSpam}</p>
      ) : (
        <>
          {item.email ? <ReplyForm item={item} reload={reload} /> : null}
          <NoteForm id={item.id} reload={reload} />
        </>
      )}
    </Section>
  );
}

/**
 * Writing an issue: Subject, Preview line (the preheader) and Body (Markdown), with the limits
 * of IssueInputSchema (ISSUE_LIMITS); "Save draft" saves a new draft or changes a draft or a
 * scheduled issue. The server checks the fields: its sentence goes to the console's alert region
 * and each field's error is shown by its field, the first of them focused. An issue that has
 * begun to go out is shown read-only. `/owner/newsletter/new` is the form alone.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { newsletterIssuesCopy as copy } from '~/content/newsletter-console';
import { Field, SubmitButton } from '~/components/console/fields';
import { useNotify } from '~/components/console/notices';
import { page } from '~/components/console/paths';
import { BackLink, PageHeading, Section } from '~/components/console/page';
import { ISSUE_LIMITS, issueRoutes, type IssueDetail } from '../issues-console-contract';
import {
  differs,
  EMPTY_ISSUE,
  inputOf,
  isEditable,
  issuePage,
  postTo,
  valuesOf,
  type IssueValues,
} from './issue-api';

type IssueErrors = Partial<Record<keyof IssueValues, string>>;

const FIELDS = ['subject', 'preheader', 'body'] as const;

/** The server's field errors, for the form's own fields. */
function errorsOf(fieldErrors: Record<string, unknown> | undefined): IssueErrors {
  const errors: IssueErrors = {};
  for (const name of FIELDS) {
    const value = fieldErrors?.[name];
    if (value !== undefined) errors[name] = String(Array.isArray(value) ? (value[0] as unknown) : value);
  }
  return errors;
}

/**
 * The form's state: the values typed, the server's errors, whether it differs from the saved
 * issue (`dirty`), and `save`, which hands the saved issue to `onSaved`.
 */
export function useIssueForm(issue: IssueDetail | undefined, onSaved: (saved: IssueDetail) => void) {
  const notify = useNotify();
  const [values, setValues] = useState<IssueValues>(() => (issue ? valuesOf(issue) : EMPTY_ISSUE));
  const [errors, setErrors] = useState<IssueErrors>({});
  const [saving, setSaving] = useState(false);
  // The field to focus after a refusal (a new object each time, so the same field is focused again).
  const [focusOn, setFocusOn] = useState<{ name: keyof IssueValues } | null>(null);
  const id = useId();
  const ids: Record<keyof IssueValues, string> = {
    subject: `${id}-subject`,
    preheader: `${id}-preheader`,
    body: `${id}-body`,
  };
  const editable = !issue || isEditable(issue.status);
  const dirty = !!issue && editable && differs(values, issue);

  // The first field in error takes focus once its error is on the page (a render after the answer).
  useEffect(() => {
    if (focusOn) document.getElementById(`${id}-${focusOn.name}`)?.focus();
  }, [focusOn, id]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (saving || !editable) return;
    setSaving(true);
    const input = inputOf(values);
    const result = issue
      ? await postTo(issueRoutes.update, issue.id, input)
      : await postTo(issueRoutes.create, undefined, input);
    setSaving(false);
    if (!result.ok) {
      // 401 has already sent the console back to the sign-in page.
      if (result.status === 401) return;
      const fieldErrors = errorsOf(result.fieldErrors);
      setErrors(fieldErrors);
      const first = FIELDS.find((name) => fieldErrors[name]);
      if (first) setFocusOn({ name: first });
      notify({ tone: 'error', text: result.error });
      return;
    }
    setErrors({});
    setValues(valuesOf(result.data));
    onSaved(result.data);
  }

  const set = (name: keyof IssueValues) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [name]: value }));
  };

  return { values, errors, saving, ids, editable, dirty, save, set };
}

export type IssueFormState = ReturnType<typeof useIssueForm>;

/** The three fields and the save button; read-only once the issue has begun to go out. */
export function IssueForm({
  form,
  issue,
  unsavedId,
}: {
  form: IssueFormState;
  issue?: IssueDetail;
  /** The id of the line that says there are unsaved changes (the send buttons point to it). */
  unsavedId?: string;
}) {
  const { errors, ids, editable, dirty, saving, set } = form;
  // Read-only, the fields show the issue as the server has it.
  const values = editable || !issue ? form.values : valuesOf(issue);
  const readOnly = !editable;
  return (
    <form noValidate onSubmit={(e) => void form.save(e)} className="mt-4 grid gap-y-1">
      <Field
        id={ids.subject}
        label={copy.subjectLabel}
        hint={copy.subjectHint(ISSUE_LIMITS.subject)}
        error={errors.subject}
        validated
        required
      >
        {(control) => (
          <input
            {...control}
            type="text"
            name="subject"
            maxLength={ISSUE_LIMITS.subject}
            autoComplete="off"
            readOnly={readOnly}
            value={values.subject}
            onChange={set('subject')}
            className="field-input"
          />
        )}
      </Field>
      <Field
        id={ids.preheader}
        label={copy.preheaderLabel}
        hint={copy.preheaderHint(ISSUE_LIMITS.preheader)}
        error={errors.preheader}
        validated
      >
        {(control) => (
          <input
            {...control}
            type="text"
            name="preheader"
            maxLength={ISSUE_LIMITS.preheader}
            autoComplete="off"
            readOnly={readOnly}
            value={values.preheader}
            onChange={set('preheader')}
            className="field-input"
          />
        )}
      </Field>
      <Field
        id={ids.body}
        label={copy.bodyLabel}
        hint={copy.bodyHint(ISSUE_LIMITS.body)}
        error={errors.body}
        validated
        required
      >
        {(control) => (
          <textarea
            {...control}
            name="body"
            rows={16}
            maxLength={ISSUE_LIMITS.body}
            readOnly={readOnly}
            value={values.body}
            onChange={set('body')}
            className="field-input font-mono text-sm"
          />
        )}
      </Field>
      {editable ? (
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <SubmitButton
            busy={saving}
            label={issue?.status === 'scheduled' ? copy.saveChanges : copy.saveDraft}
            busyLabel={copy.saving}
          />
          {dirty ? (
            <p id={unsavedId} className="font-semibold text-brand-800">
              {copy.unsaved}
            </p>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

/** `/owner/newsletter/new`: the form alone; saved, the draft's page opens. */
export function NewIssuePage() {
  const navigate = useNavigate();
  const form = useIssueForm(undefined, (saved) => {
    void navigate(issuePage(saved.id), { state: { notice: { tone: 'success', text: copy.created } } });
  });
  return (
    <>
      <BackLink to={page('newsletter')}>{copy.back}</BackLink>
      <PageHeading title={copy.newTitle}>{copy.newTitle}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.newIntro}</p>
      <Section id="issue-write" heading={copy.writeHeading} className="card mt-6">
        <IssueForm form={form} />
      </Section>
    </>
  );
}

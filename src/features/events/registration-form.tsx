/**
 * The masterclass registration form: name, e-mail, role or company and the consent, on the one
 * form pattern (decision 019): the field kit, `useSchemaForm` with the schema the server uses
 * (loaded on first use), the spam traps, sent with `submitForm` through the form endpoint.
 * 200: a thank-you panel that says whether a place is held or the visitor is on the waitlist;
 * 409: the server's sentence (why the event is not open for registration); 400: the field errors.
 */
import { CheckCircle2, ListOrdered } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ConsentField, SubmitButton, TextFields, type FieldSpec } from '~/components/form/field';
import { HoneypotField } from '~/components/form/honeypot-field';
import { useSchemaForm, validationOnDemand } from '~/components/form/use-schema-form';
import { toast } from '~/components/toast/toast-store';
import { registrationForm as copy } from '~/content/events';
import { submitForm } from '~/lib/api-client';
import { EVENT_FORM_TYPE, type RegistrationAnswer } from './events-api';
import type { RegistrationInput, RegistrationValues } from './events-schema';

// The schema and zod load when the visitor first focuses a field, at the latest on submit
// (decision 016): the page hydrates without them.
const validation = validationOnDemand(() => import('./registration-validation'));

const FIELDS: readonly FieldSpec<keyof RegistrationInput>[] = [
  { name: 'firstName', label: copy.fields.firstName, autoComplete: 'name', maxLength: 100 },
  { name: 'email', label: copy.fields.email, type: 'email', autoComplete: 'email', maxLength: 100 },
  { name: 'company', label: copy.fields.company, autoComplete: 'organization-title', maxLength: 100 },
];

/** The fields the visitor fills; the event's id travels with them but is not a field. */
const SHOWN = new Set<string>([...FIELDS.map((f) => f.name), 'consent']);

const emptyFor = (eventId: string) =>
  ({ eventId, firstName: '', email: '', company: '', consent: false }) as unknown as RegistrationInput;

export function RegistrationForm({ eventId, waitlist }: { eventId: string; waitlist: boolean }) {
  const [done, setDone] = useState<RegistrationAnswer['status'] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const thanksHeading = useRef<HTMLHeadingElement>(null);
  const form = useSchemaForm({ formType: EVENT_FORM_TYPE, validation, defaultValues: emptyFor(eventId) });
  const { register, errorOf } = form;

  // The thank-you panel is announced: focus goes to its heading once it is drawn.
  useEffect(() => {
    if (done) thanksHeading.current?.focus();
  }, [done]);

  const failed = (title: string) => toast({ title, variant: 'destructive' });

  const onValid = async (values: RegistrationValues) => {
    setRefusal(null);
    const result = await submitForm<RegistrationAnswer>({
      formType: EVENT_FORM_TYPE,
      ...values,
      eventId,
      ...(await form.trapFields()),
    });
    if (!result.ok) {
      if (result.status === 409) {
        setRefusal(result.error);
        return;
      }
      form.showFieldErrors(result.fieldErrors);
      const other = Object.keys(result.fieldErrors ?? {}).some((field) => !SHOWN.has(field));
      if (result.status === 400 && other) setRefusal(copy.reload);
      failed(result.status === 429 ? result.error : copy.failed);
      return;
    }
    form.reset(emptyFor(eventId));
    setDone(result.data.status === 'waitlisted' ? 'waitlisted' : 'registered');
  };

  if (done) {
    const thanks = done === 'waitlisted' ? copy.waitlisted : copy.registered;
    const Icon = done === 'waitlisted' ? ListOrdered : CheckCircle2;
    return (
      <div className="py-4 text-center" role="status" data-testid="registration-thank-you" data-status={done}>
        <Icon aria-hidden="true" className="mx-auto size-12 text-success-700" />
        <h3 ref={thanksHeading} tabIndex={-1} className="mt-4 text-2xl font-bold text-ink-900 outline-none">
          {thanks.heading}
        </h3>
        <p className="mt-3 text-ink-700">{thanks.text}</p>
      </div>
    );
  }

  return (
    <form
      {...form.formProps}
      onSubmit={(event) => form.submit(event, onValid, () => failed(copy.failed))}
      className="grid gap-2"
      aria-label={copy.label}
      data-testid="registration-form"
    >
      <TextFields fields={FIELDS} errorOf={errorOf} bind={register} />
      <ConsentField text={copy.consent} error={errorOf('consent')} bind={register} />
      <HoneypotField inputProps={form.honeypotProps} />
      {refusal ? (
        <p role="alert" className="field-error" data-testid="registration-refusal">
          {refusal}
        </p>
      ) : null}
      <SubmitButton
        busy={form.formState.isSubmitting}
        copy={{ submit: waitlist ? copy.submitWaitlist : copy.submit, submitting: copy.submitting }}
        className="w-full"
      />
    </form>
  );
}

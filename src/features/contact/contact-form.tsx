/**
 * The contact form (spec sections 2, 4, 5, 7 and 8): every field with its limits and messages,
 * the subject list, the consent box, the browser's 3-per-5-minutes limit, 'Sending...', the
 * Thank You panel with 'Send Another Message'; on failure the form stays as it is.
 */
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ConsentField, Field, SubmitButton, TextFields, type FieldSpec } from '~/components/form/field';
import { HoneypotField } from '~/components/form/honeypot-field';
import { useSchemaForm, validationOnDemand } from '~/components/form/use-schema-form';
import { toast } from '~/components/toast/toast-store';
import { consents } from '~/content/consents';
import { contactForm as copy } from '~/content/contact';
import { TOO_MANY_ATTEMPTS } from '~/content/forms';
import { submitForm } from '~/lib/api-client';
import { browserStorage, takeContactAttempt } from './contact-rate-limit';
import { CONTACT_FORM_TYPE, CONTACT_LIMITS, CONTACT_SUBJECTS, toContactRequest } from './contact-fields';
import type { ContactInput, ContactValues } from './contact-schema';

// The schema and zod load when the visitor first focuses a field, at the latest on submit
// (decision 016): the page hydrates without them.
const validation = validationOnDemand(() => import('./contact-validation'));

const NAME_FIELDS: readonly FieldSpec<keyof ContactInput>[] = [
  {
    name: 'firstName',
    label: copy.fields.firstName,
    autoComplete: 'given-name',
    maxLength: CONTACT_LIMITS.name,
  },
  {
    name: 'lastName',
    label: copy.fields.lastName,
    autoComplete: 'family-name',
    maxLength: CONTACT_LIMITS.name,
  },
  {
    name: 'email',
    label: copy.fields.email,
    type: 'email',
    autoComplete: 'email',
    maxLength: CONTACT_LIMITS.email,
  },
  {
    name: 'company',
    label: copy.fields.company,
    autoComplete: 'organization',
    maxLength: CONTACT_LIMITS.company,
  },
];
const MESSAGE_FIELD: readonly FieldSpec<keyof ContactInput>[] = [
  { name: 'message', label: copy.fields.message, rows: 6, className: 'sm:col-span-2' },
];

const EMPTY = {
  firstName: '',
  lastName: '',
  email: '',
  company: '',
  subject: '',
  message: '',
  consent: false,
} as unknown as ContactInput;

const failed = (title: string) => toast({ title, variant: 'destructive' });

export function ContactForm() {
  const [sent, setSent] = useState(false);
  const thanksHeading = useRef<HTMLHeadingElement>(null);
  const form = useSchemaForm({ formType: CONTACT_FORM_TYPE, validation, defaultValues: EMPTY });
  const { register, errorOf } = form;

  const onValid = async (values: ContactValues) => {
    if (!takeContactAttempt(browserStorage())) {
      failed(TOO_MANY_ATTEMPTS);
      return;
    }
    const result = await submitForm({ ...toContactRequest(values), ...(await form.trapFields()) });
    if (!result.ok) {
      form.showFieldErrors(result.fieldErrors);
      failed(result.status === 429 ? TOO_MANY_ATTEMPTS : copy.failed);
      return;
    }
    form.reset(EMPTY);
    setSent(true);
    toast({ title: copy.sent });
  };
  // After the await above, React renders `sent` in a later task; the heading takes focus once it is there.
  useEffect(() => {
    if (sent) thanksHeading.current?.focus();
  }, [sent]);

  if (sent) {
    return (
      <div className="card text-center" data-testid="contact-thank-you">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-12 text-success-700" />
        <h3 ref={thanksHeading} tabIndex={-1} className="mt-4 text-2xl font-bold text-ink-900 outline-none">
          {copy.thanks.heading}
        </h3>
        <p className="mt-3 text-ink-700">{copy.thanks.text}</p>
        <button
          type="button"
          className="btn btn-secondary mt-6"
          onClick={() => {
            setSent(false);
            form.restart();
            requestAnimationFrame(() => form.setFocus('firstName'));
          }}
        >
          {copy.thanks.again}
        </button>
      </div>
    );
  }

  return (
    <form
      {...form.formProps}
      onSubmit={(event) => form.submit(event, onValid, () => failed(copy.failed))}
      className="grid gap-x-4 gap-y-2 sm:grid-cols-2"
      aria-label={copy.label}
    >
      <TextFields fields={NAME_FIELDS} errorOf={errorOf} bind={register} />
      <Field label={copy.fields.subject} error={errorOf('subject')} required className="sm:col-span-2">
        {(control) => (
          <select {...control} {...register('subject')} className="field-input">
            <option value="" disabled>
              {copy.subjectPlaceholder}
            </option>
            {CONTACT_SUBJECTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextFields fields={MESSAGE_FIELD} errorOf={errorOf} bind={register} />
      <ConsentField
        text={consents.contact.text}
        error={errorOf('consent')}
        bind={register}
        className="sm:col-span-2"
      />
      <HoneypotField inputProps={form.honeypotProps} />
      <SubmitButton busy={form.formState.isSubmitting} copy={copy} className="sm:col-span-2" />
    </form>
  );
}

/**
 * The contact form (spec sections 2, 4, 5, 7 and 8): every field with its limits and messages,
 * the subject list, the consent box, the browser's 3-per-5-minutes limit, 'Sending...', the
 * Thank You panel with 'Send Another Message'; on failure the form stays as it is.
 */
import { CheckCircle2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '~/components/toast/toast-store';
import { consents } from '~/content/consents';
import { submitForm } from '~/lib/api-client';
import { onDemand, resolverOnDemand, submitOnceLoaded } from '~/lib/on-demand';
import { fieldA11y, useFormGuard } from '~/lib/use-form-guard';
import { HoneypotField } from '~/components/ui/honeypot-field';
import { TOO_MANY_ATTEMPTS } from '~/content/forms';
import { browserStorage, takeContactAttempt } from './contact-rate-limit';
import { CONTACT_FORM_TYPE, CONTACT_LIMITS, CONTACT_SUBJECTS, toContactRequest } from './contact-fields';
import type { ContactInput, ContactValues } from './contact-schema';

// The schema and zod load when the visitor first focuses a field, at the latest on submit
// (decision 016): the page hydrates without them.
const loadValidation = onDemand(() => import('./contact-validation'));
const resolver = resolverOnDemand<ContactInput, unknown, ContactValues>(() =>
  loadValidation().then((m) => m.contactResolver),
);
const SEND_FAILED = 'Failed to send message. Please try again.';

type TextName = 'firstName' | 'lastName' | 'email' | 'company';
const TEXT_FIELDS: { name: TextName; label: string; type: string; autoComplete: string; max: number }[] = [
  {
    name: 'firstName',
    label: 'First Name',
    type: 'text',
    autoComplete: 'given-name',
    max: CONTACT_LIMITS.name,
  },
  {
    name: 'lastName',
    label: 'Last Name',
    type: 'text',
    autoComplete: 'family-name',
    max: CONTACT_LIMITS.name,
  },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', max: CONTACT_LIMITS.email },
  {
    name: 'company',
    label: 'Company',
    type: 'text',
    autoComplete: 'organization',
    max: CONTACT_LIMITS.company,
  },
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

function ErrorText({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

export function ContactForm() {
  const baseId = useId();
  const [sent, setSent] = useState(false);
  const thanksHeading = useRef<HTMLHeadingElement>(null);
  const { guardFields, restart, honeypotProps } = useFormGuard(CONTACT_FORM_TYPE);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ContactInput, unknown, ContactValues>({
    resolver,
    defaultValues: EMPTY,
  });

  const onValid = async (values: ContactValues) => {
    if (!takeContactAttempt(browserStorage())) {
      toast({ title: TOO_MANY_ATTEMPTS, variant: 'destructive' });
      return;
    }
    const result = await submitForm({ ...toContactRequest(values), ...(await guardFields()) });
    if (!result.ok) {
      for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
        if (field in values) setError(field as keyof ContactInput, { message });
      }
      toast({
        title: result.status === 429 ? TOO_MANY_ATTEMPTS : SEND_FAILED,
        variant: 'destructive',
      });
      return;
    }
    reset(EMPTY);
    setSent(true);
    toast({ title: 'Message sent successfully!' });
    requestAnimationFrame(() => thanksHeading.current?.focus());
  };

  if (sent) {
    return (
      <div className="card text-center" data-testid="contact-thank-you">
        <CheckCircle2 aria-hidden="true" className="mx-auto size-12 text-success-700" />
        <h3 ref={thanksHeading} tabIndex={-1} className="mt-4 text-2xl font-bold text-ink-900 outline-none">
          Thank You!
        </h3>
        <p className="mt-3 text-ink-700">
          We&apos;ve received your message and will respond within 1-2 business days.
        </p>
        <button
          type="button"
          className="btn btn-secondary mt-6"
          onClick={() => {
            setSent(false);
            restart();
            requestAnimationFrame(() => setFocus('firstName'));
          }}
        >
          Send Another Message
        </button>
      </div>
    );
  }

  const subject = fieldA11y(baseId, 'subject', errors.subject?.message);
  const message = fieldA11y(baseId, 'message', errors.message?.message);
  const consent = fieldA11y(baseId, 'consent', errors.consent?.message);
  return (
    <form
      noValidate
      onFocus={() => void loadValidation().catch(() => {})}
      onSubmit={(event) =>
        submitOnceLoaded(event, loadValidation, handleSubmit(onValid), () =>
          toast({ title: SEND_FAILED, variant: 'destructive' }),
        )
      }
      className="grid gap-4 sm:grid-cols-2"
      aria-label="Send Us a Message"
    >
      {TEXT_FIELDS.map((f) => {
        const a11y = fieldA11y(baseId, f.name, errors[f.name]?.message);
        return (
          <div key={f.name}>
            <label htmlFor={a11y.id} className="field-label">
              {f.label}
            </label>
            <input
              {...register(f.name)}
              {...a11y.inputProps}
              type={f.type}
              autoComplete={f.autoComplete}
              maxLength={f.max}
              required
              className="field-input"
            />
            <ErrorText id={a11y.errorId} message={errors[f.name]?.message} />
          </div>
        );
      })}
      <div className="sm:col-span-2">
        <label htmlFor={subject.id} className="field-label">
          Subject
        </label>
        <select {...register('subject')} {...subject.inputProps} required className="field-input">
          <option value="" disabled>
            Please select
          </option>
          {CONTACT_SUBJECTS.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <ErrorText id={subject.errorId} message={errors.subject?.message} />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={message.id} className="field-label">
          Message
        </label>
        <textarea
          {...register('message')}
          {...message.inputProps}
          rows={6}
          required
          className="field-input"
        />
        <ErrorText id={message.errorId} message={errors.message?.message} />
      </div>
      <div className="sm:col-span-2">
        <div className="flex items-start gap-3">
          <input
            {...register('consent')}
            {...consent.inputProps}
            type="checkbox"
            required
            className="mt-1 size-4 shrink-0 accent-brand-700"
          />
          <label htmlFor={consent.id} className="text-sm text-ink-700">
            {consents.contact.text}
          </label>
        </div>
        <ErrorText id={consent.errorId} message={errors.consent?.message} />
      </div>
      <HoneypotField inputProps={honeypotProps} />
      <button type="submit" className="btn btn-primary sm:col-span-2" disabled={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}

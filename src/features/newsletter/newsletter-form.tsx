/**
 * The Smart Money Newsletter sign-up (spec sections 4, 5, 7 and 8): first name, last name and
 * e-mail. 'Subscribing...' while sending; cleared on success, kept on failure. The address
 * then gets a confirmation link (double opt-in), which the success toast mentions.
 */
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '~/components/toast/toast-store';
import { submitForm } from '~/lib/api-client';
import { onDemand, resolverOnDemand, submitOnceLoaded } from '~/lib/on-demand';
import { fieldA11y, useFormGuard } from '~/lib/use-form-guard';
import { HoneypotField } from '~/components/ui/honeypot-field';
import { NEWSLETTER_FORM_TYPE, toNewsletterRequest } from './newsletter-fields';
import type { NewsletterInput, NewsletterValues } from './newsletter-schema';

// The schema and zod load when the visitor first focuses a field, at the latest on submit
// (decision 016): the page hydrates without them.
const loadValidation = onDemand(() => import('./newsletter-validation'));
const resolver = resolverOnDemand<NewsletterInput, unknown, NewsletterValues>(() =>
  loadValidation().then((m) => m.newsletterResolver),
);
const SUBSCRIBE_FAILED = 'Failed to subscribe. Please try again.';

const FIELDS: { name: keyof NewsletterInput; label: string; type: string; autoComplete: string }[] = [
  { name: 'firstName', label: 'First Name', type: 'text', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last Name', type: 'text', autoComplete: 'family-name' },
  { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email' },
];

const EMPTY: NewsletterInput = { firstName: '', lastName: '', email: '' };

export function NewsletterForm() {
  const baseId = useId();
  const { guardFields, restart, honeypotProps } = useFormGuard(NEWSLETTER_FORM_TYPE);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewsletterInput, unknown, NewsletterValues>({
    resolver,
    defaultValues: EMPTY,
  });

  const onValid = async (values: NewsletterValues) => {
    const result = await submitForm({ ...toNewsletterRequest(values), ...(await guardFields()) });
    if (!result.ok) {
      for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
        if (field in values) setError(field as keyof NewsletterInput, { message });
      }
      toast({ title: SUBSCRIBE_FAILED, variant: 'destructive' });
      return;
    }
    reset(EMPTY);
    restart();
    toast({
      title: 'Thank you for subscribing!',
      description: 'Please confirm with the link we have just e-mailed you.',
    });
  };

  return (
    <form
      noValidate
      onFocus={() => void loadValidation().catch(() => {})}
      onSubmit={(event) =>
        submitOnceLoaded(event, loadValidation, handleSubmit(onValid), () =>
          toast({ title: SUBSCRIBE_FAILED, variant: 'destructive' }),
        )
      }
      className="grid gap-4 sm:grid-cols-2"
      aria-label="Subscribe to The Smart Money Newsletter"
    >
      {FIELDS.map((f) => {
        const a11y = fieldA11y(baseId, f.name, errors[f.name]?.message);
        return (
          <div key={f.name} className={f.name === 'email' ? 'sm:col-span-2' : undefined}>
            <label htmlFor={a11y.id} className="field-label">
              {f.label}
            </label>
            <input
              {...register(f.name)}
              {...a11y.inputProps}
              type={f.type}
              autoComplete={f.autoComplete}
              required
              className="field-input"
            />
            {errors[f.name] ? (
              <p id={a11y.errorId} className="field-error" role="alert">
                {errors[f.name]?.message}
              </p>
            ) : null}
          </div>
        );
      })}
      <HoneypotField inputProps={honeypotProps} />
      <button type="submit" className="btn btn-primary sm:col-span-2" disabled={isSubmitting}>
        {isSubmitting ? 'Subscribing...' : 'Subscribe'}
      </button>
    </form>
  );
}

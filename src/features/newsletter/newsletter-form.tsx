/**
 * The Smart Money Newsletter sign-up (spec sections 4, 5, 7 and 8): first name, last name and
 * e-mail. 'Subscribing...' while sending; cleared on success, kept on failure. The address
 * then gets a confirmation link (double opt-in), which the success toast mentions.
 */
import { SubmitButton, TextFields, type FieldSpec } from '~/components/form/field';
import { HoneypotField } from '~/components/form/honeypot-field';
import { useSchemaForm, validationOnDemand } from '~/components/form/use-schema-form';
import { toast } from '~/components/toast/toast-store';
import { newsletterForm as copy } from '~/content/resources';
import { submitForm } from '~/lib/api-client';
import { NEWSLETTER_FORM_TYPE, toNewsletterRequest } from './newsletter-fields';
import type { NewsletterInput, NewsletterValues } from './newsletter-schema';

// The schema and zod load when the visitor first focuses a field, at the latest on submit
// (decision 016): the page hydrates without them.
const validation = validationOnDemand(() => import('./newsletter-validation'));

const FIELDS: readonly FieldSpec<keyof NewsletterInput>[] = [
  { name: 'firstName', label: copy.fields.firstName, autoComplete: 'given-name' },
  { name: 'lastName', label: copy.fields.lastName, autoComplete: 'family-name' },
  {
    name: 'email',
    label: copy.fields.email,
    type: 'email',
    autoComplete: 'email',
    className: 'sm:col-span-2',
  },
];

const EMPTY: NewsletterInput = { firstName: '', lastName: '', email: '' };

const failed = () => toast({ title: copy.failed, variant: 'destructive' });

export function NewsletterForm() {
  const form = useSchemaForm({ formType: NEWSLETTER_FORM_TYPE, validation, defaultValues: EMPTY });

  const onValid = async (values: NewsletterValues) => {
    const result = await submitForm({ ...toNewsletterRequest(values), ...(await form.trapFields()) });
    if (!result.ok) {
      form.showFieldErrors(result.fieldErrors);
      failed();
      return;
    }
    form.reset(EMPTY);
    form.restart();
    toast({ title: copy.subscribed, description: copy.subscribedDetail });
  };

  return (
    <form
      {...form.formProps}
      onSubmit={(event) => form.submit(event, onValid, failed)}
      className="grid gap-x-4 gap-y-2 sm:grid-cols-2"
      aria-label={copy.label}
    >
      <TextFields fields={FIELDS} errorOf={form.errorOf} bind={form.register} />
      <HoneypotField inputProps={form.honeypotProps} />
      <SubmitButton busy={form.formState.isSubmitting} copy={copy} className="sm:col-span-2" />
    </form>
  );
}

/**
 * The Wealth Building Guide download form (spec sections 4, 5, 7 and 8): name, e-mail, role or
 * company and the required consent. While sending, the button reads 'Processing...'; on
 * success a Thank You view with a direct link replaces the form and the PDF opens in a new
 * tab 500 ms later; on failure the form stays as it was and a toast says so.
 *
 * It sits on the home page, whose first load has room for little beyond React itself, so the
 * fields are plain uncontrolled inputs and the schema (zod) and the api client arrive on
 * first use: when the visitor focuses a field, or at the latest on submit (decision 007).
 */
import { Download } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { toast } from '~/components/toast/toast-store';
import { consents } from '~/content/consents';
import { fieldA11y, useFormGuard } from '~/lib/use-form-guard';
import { HoneypotField } from '~/components/ui/honeypot-field';
import { GUIDE_FORM_TYPE, GUIDE_PDF_PATH } from './guide-file';
import type { GuideErrors, GuideField } from './guide-submit';

/** Spec section 9: the guide opens 500 ms after a successful request. */
export const GUIDE_OPEN_DELAY_MS = 500;

const loadLogic = () => import('./guide-submit');

type TextField = Exclude<GuideField, 'consent'>;
const TEXT_FIELDS: {
  name: TextField;
  label: string;
  type?: string;
  autoComplete: string;
}[] = [
  { name: 'firstName', label: 'Full Name', autoComplete: 'name' },
  {
    name: 'email',
    label: 'Email Address',
    type: 'email',
    autoComplete: 'email',
  },
  {
    name: 'company',
    label: 'Current Role or Company',
    autoComplete: 'organization-title',
  },
];
const FIELD_ORDER: GuideField[] = ['firstName', 'email', 'company', 'consent'];

/** The spec logs the failure (the status only, never what was typed) and says so in a toast. */
function fail(status?: number) {
  console.error(`Guide request failed (${status || 'network'})`);
  toast({ title: 'Failed to submit request. Please try again.', variant: 'destructive' });
}

function readForm(form: HTMLFormElement): Record<GuideField, unknown> {
  const data = new FormData(form);
  return {
    firstName: data.get('firstName') ?? '',
    email: data.get('email') ?? '',
    company: data.get('company') ?? '',
    consent: data.get('consent') === 'on',
  };
}

export function GuideForm() {
  const baseId = useId();
  const [done, setDone] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<GuideErrors>({});
  // After a first submit, fields are checked again as they change, so a fixed error clears at once.
  const [submitted, setSubmitted] = useState(false);
  const openTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { guardFields, honeypotProps } = useFormGuard(GUIDE_FORM_TYPE);

  useEffect(() => () => clearTimeout(openTimer.current), []);

  const revalidate = async (form: HTMLFormElement) => {
    if (!submitted) return;
    const { validateGuide } = await loadLogic();
    const result = validateGuide(readForm(form));
    setErrors(result.ok ? {} : result.errors);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const form = event.currentTarget;
    setSubmitted(true);
    setSubmitting(true);
    try {
      const { validateGuide, sendGuide } = await loadLogic();
      const checked = validateGuide(readForm(form));
      if (!checked.ok) {
        setErrors(checked.errors);
        const first = FIELD_ORDER.find((f) => checked.errors[f]);
        if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
        return;
      }
      setErrors({});
      const result = await sendGuide(checked.values, await guardFields());
      if (!result.ok) {
        fail(result.status);
        const fieldErrors: GuideErrors = {};
        for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
          if ((FIELD_ORDER as string[]).includes(field)) fieldErrors[field as GuideField] = message;
        }
        setErrors(fieldErrors);
        return;
      }
      setDone(true);
      toast({
        title: 'Your guide is downloading!',
        description: 'A copy of the link is on its way to your inbox.',
      });
      openTimer.current = setTimeout(() => {
        window.open(GUIDE_PDF_PATH, '_blank', 'noopener');
      }, GUIDE_OPEN_DELAY_MS);
    } catch {
      // The form's code could not be fetched (offline, a new deploy): the same failure as a refused request.
      fail();
    } finally {
      setSubmitting(false);
    }
  };

  if (done) {
    return (
      <div className="card text-center" role="status" data-testid="guide-thank-you">
        <h3 className="text-2xl font-bold text-ink-900">Thank You</h3>
        <p className="mt-3 text-ink-700">
          Your Wealth Building Guide is opening in a new tab, and we have e-mailed you the link too. If it did
          not open, use the direct link below.
        </p>
        <a href={GUIDE_PDF_PATH} target="_blank" rel="noopener" className="btn btn-primary mt-6">
          <Download aria-hidden="true" className="size-4" />
          Download the guide (PDF)
        </a>
      </div>
    );
  }

  const consent = fieldA11y(baseId, 'consent', errors.consent);
  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onFocus={() => void loadLogic().catch(() => undefined)}
      onChange={(event) => void revalidate(event.currentTarget)}
      className="grid gap-4"
      aria-label="Download the Wealth Building Guide"
    >
      {TEXT_FIELDS.map((f) => {
        const a11y = fieldA11y(baseId, f.name, errors[f.name]);
        return (
          <div key={f.name}>
            <label htmlFor={a11y.id} className="field-label">
              {f.label}
            </label>
            <input
              {...a11y.inputProps}
              name={f.name}
              type={f.type ?? 'text'}
              autoComplete={f.autoComplete}
              maxLength={100}
              required
              className="field-input"
            />
            {errors[f.name] ? (
              <p id={a11y.errorId} className="field-error" role="alert">
                {errors[f.name]}
              </p>
            ) : null}
          </div>
        );
      })}
      <div>
        <div className="flex items-start gap-3">
          <input
            {...consent.inputProps}
            name="consent"
            type="checkbox"
            required
            className="mt-1 size-4 shrink-0 accent-brand-700"
          />
          <label htmlFor={consent.id} className="text-sm text-ink-700">
            {consents.guide.text}
          </label>
        </div>
        {errors.consent ? (
          <p id={consent.errorId} className="field-error" role="alert">
            {errors.consent}
          </p>
        ) : null}
      </div>
      <HoneypotField inputProps={honeypotProps} />
      <button type="submit" className="btn btn-primary w-full" disabled={submitting}>
        {submitting ? 'Processing...' : 'Download Free Guide'}
      </button>
    </form>
  );
}

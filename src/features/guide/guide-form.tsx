/**
 * The Wealth Building Guide download form (spec sections 4, 5, 7 and 8): name, e-mail, role or
 * company and the required consent. While sending, the button reads 'Processing...'; on
 * success a Thank You view with a direct link replaces the form and the PDF opens in a new
 * tab 500 ms later; on failure the form stays as it was and a toast says so.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Download } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '~/components/toast/toast-store';
import { consents } from '~/content/consents';
import { submitForm } from '~/lib/api-client';
import { HONEYPOT_STYLE, fieldA11y, useFormGuard } from '~/lib/use-form-guard';
import { GUIDE_PDF_PATH } from './guide-file';
import { GuideSchema, toGuideRequest, type GuideInput, type GuideValues } from './guide-schema';

/** Spec section 9: the guide opens 500 ms after a successful request. */
export const GUIDE_OPEN_DELAY_MS = 500;

type TextField = 'firstName' | 'email' | 'company';
const TEXT_FIELDS: { name: TextField; label: string; type: string; autoComplete: string; placeholder: string }[] = [
  { name: 'firstName', label: 'Full Name', type: 'text', autoComplete: 'name', placeholder: 'Jane Smith' },
  { name: 'email', label: 'Email Address', type: 'email', autoComplete: 'email', placeholder: 'jane@example.co.uk' },
  { name: 'company', label: 'Current Role or Company', type: 'text', autoComplete: 'organization-title', placeholder: 'Senior Manager, Acme Ltd' },
];

export function GuideForm() {
  const baseId = useId();
  const [done, setDone] = useState(false);
  const openTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { guardFields, honeypotProps } = useFormGuard();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<GuideInput, unknown, GuideValues>({
    resolver: zodResolver(GuideSchema),
    defaultValues: { firstName: '', email: '', company: '', consent: false as unknown as true },
  });

  useEffect(() => () => clearTimeout(openTimer.current), []);

  const onValid = async (values: GuideValues) => {
    const result = await submitForm({ ...toGuideRequest(values), ...guardFields() });
    if (!result.ok) {
      // The spec logs the failure; the status only, never what was typed.
      console.error(`Guide request failed (${result.status || 'network'})`);
      for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
        if (field in values) setError(field as keyof GuideInput, { message });
      }
      toast({ title: 'Failed to submit request. Please try again.', variant: 'destructive' });
      return;
    }
    setDone(true);
    toast({ title: 'Your guide is downloading!', description: 'A copy of the link is on its way to your inbox.' });
    openTimer.current = setTimeout(() => {
      window.open(GUIDE_PDF_PATH, '_blank', 'noopener');
    }, GUIDE_OPEN_DELAY_MS);
  };

  if (done) {
    return (
      <div className="card text-center" role="status" data-testid="guide-thank-you">
        <h3 className="text-2xl font-bold text-ink-900">Thank You</h3>
        <p className="mt-3 text-ink-700">
          Your Wealth Building Guide is opening in a new tab, and we have e-mailed you the link too. If it did not open,
          use the direct link below.
        </p>
        <a href={GUIDE_PDF_PATH} target="_blank" rel="noopener" className="btn btn-primary mt-6">
          <Download aria-hidden="true" className="size-4" />
          Download the guide (PDF)
        </a>
      </div>
    );
  }

  const consent = fieldA11y(baseId, 'consent', errors.consent?.message);
  return (
    <form noValidate onSubmit={(event) => void handleSubmit(onValid)(event)} className="grid gap-4" aria-label="Download the Wealth Building Guide">
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
              placeholder={f.placeholder}
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
      <div>
        <div className="flex items-start gap-3">
          <input
            {...register('consent')}
            {...consent.inputProps}
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
            {errors.consent.message}
          </p>
        ) : null}
      </div>
      <div aria-hidden="true" style={HONEYPOT_STYLE}>
        <label>
          Website
          <input {...honeypotProps} />
        </label>
      </div>
      <button type="submit" className="btn btn-primary w-full" disabled={isSubmitting}>
        {isSubmitting ? 'Processing...' : 'Download Free Guide'}
      </button>
    </form>
  );
}

/**
 * The Wealth Building Guide download form (spec sections 4, 5, 7 and 8): name, e-mail, role or
 * company and the required consent. While sending, the button reads 'Processing...'; on
 * success a Thank You view with a direct link replaces the form and the PDF opens in a new
 * tab 500 ms later; on failure the form stays as it was and a toast says so.
 *
 * It sits on the home page, whose first load has room for little beyond React itself: it is
 * drawn with the field kit like every form, but its state is light (decision 019): plain
 * uncontrolled inputs read with `FormData`, and the schema (zod) and the api client arrive on
 * first use: when the visitor focuses a field, or at the latest on submit (decision 007).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ConsentField, SubmitButton, TextFields, type FieldSpec } from '~/components/form/field';
import { HoneypotField } from '~/components/form/honeypot-field';
import { toast } from '~/components/toast/toast-store';
import { consents } from '~/content/consents';
import { guideForm as copy } from '~/content/guide';
import { useSpamTraps } from '~/lib/use-spam-traps';
import { GUIDE_FORM_TYPE, GUIDE_PDF_PATH } from './guide-file';
import type { GuideErrors, GuideField, GuideThanks } from './guide-submit';

/** Spec section 9: the guide opens 500 ms after a successful request. */
export const GUIDE_OPEN_DELAY_MS = 500;

const loadLogic = () => import('./guide-submit');

const FIELDS: readonly FieldSpec<GuideField>[] = [
  { name: 'firstName', label: copy.fields.firstName, autoComplete: 'name', maxLength: 100 },
  { name: 'email', label: copy.fields.email, type: 'email', autoComplete: 'email', maxLength: 100 },
  { name: 'company', label: copy.fields.company, autoComplete: 'organization-title', maxLength: 100 },
];
const FIELD_ORDER: GuideField[] = [...FIELDS.map((f) => f.name), 'consent'];

/** An uncontrolled control is bound by its name alone. */
const bind = (name: GuideField) => ({ name });

/** The spec logs the failure (the status only, never what was typed) and says so in a toast. */
function fail(status?: number) {
  console.error(`Guide request failed (${status || 'network'})`);
  toast({ title: copy.failed, variant: 'destructive' });
}

/** The form's values as the schema reads them (it ignores the honeypot). */
function readForm(form: HTMLFormElement): Record<GuideField, unknown> {
  const data = new FormData(form);
  return { ...(Object.fromEntries(data) as Record<GuideField, unknown>), consent: data.has('consent') };
}

export function GuideForm() {
  // The Thank You view, from the chunk the form's logic came in; set once the request succeeds.
  const [Thanks, setThanks] = useState<typeof GuideThanks | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<GuideErrors>({});
  // After a first submit, fields are checked again as they change, so a fixed error clears at once.
  const [submitted, setSubmitted] = useState(false);
  const openTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { trapFields, honeypotProps } = useSpamTraps(GUIDE_FORM_TYPE);

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
      const { validateGuide, sendGuide, GuideThanks, toastDownloading } = await loadLogic();
      const checked = validateGuide(readForm(form));
      if (!checked.ok) {
        setErrors(checked.errors);
        const first = FIELD_ORDER.find((f) => checked.errors[f]);
        if (first) (form.elements.namedItem(first) as HTMLElement | null)?.focus();
        return;
      }
      setErrors({});
      const result = await sendGuide(checked.values, await trapFields());
      if (!result.ok) {
        fail(result.status);
        // The server's field errors, shown beside the fields they name.
        setErrors(result.fieldErrors ?? {});
        return;
      }
      setThanks(() => GuideThanks);
      toastDownloading();
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

  if (Thanks) return <Thanks />;

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onFocus={() => void loadLogic().catch(() => undefined)}
      onChange={(event) => void revalidate(event.currentTarget)}
      className="grid gap-2"
      aria-label={copy.label}
    >
      <TextFields fields={FIELDS} errorOf={(name) => errors[name]} bind={bind} />
      <ConsentField text={consents.guide.text} error={errors.consent} bind={bind} />
      <HoneypotField inputProps={honeypotProps} />
      <SubmitButton busy={submitting} copy={copy} className="w-full" />
    </form>
  );
}

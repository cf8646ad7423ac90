/**
 * The Business details page (`/owner/business`): the business's name, contact e-mail, phone, office
 * address and company number; the founder's name, biography and photo; and the testimonials, each
 * marked as a real client's words with the date given and the date of the client's permission. The
 * form checks the contract's schema before it sends (each field's error by its field, the first
 * focused); the server checks it again. A save renders the public pages again.
 */
import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { businessCopy as copy } from '~/content/business-console';
import { Loaded, useResource } from '~/components/console/data';
import { formatDateTime } from '~/components/console/dates';
import { CheckboxField, Field, SubmitButton, TextField } from '~/components/console/fields';
import { post } from '~/components/console/http';
import { useNotify } from '~/components/console/notices';
import { PageHeading, Section } from '~/components/console/page';
import { fileAsBase64, imageRefusals } from '~/lib/image-upload';
import {
  BUSINESS_LIMITS,
  BusinessInputSchema,
  businessRoutes,
  PHOTO_LIMITS,
  type BusinessAnswer,
  type TestimonialInput,
} from '../business-console-contract';

type Values = {
  name: string;
  email: string;
  phone: string;
  address: string;
  companyNumber: string;
  founderName: string;
  founderBio: string;
  testimonials: Required<TestimonialInput>[];
};

const emptyTestimonial = (): Required<TestimonialInput> => ({
  quote: '',
  author: '',
  role: '',
  city: '',
  givenOn: '',
  real: false,
  permissionOn: '',
});

function valuesOf(answer: BusinessAnswer): Values {
  const d = answer.details;
  return {
    name: d?.name ?? '',
    email: d?.email ?? '',
    phone: d?.phone ?? '',
    address: d?.address.join('\n') ?? '',
    companyNumber: d?.companyNumber ?? '',
    founderName: d?.founderName ?? '',
    founderBio: d?.founderBio ?? '',
    testimonials: d?.testimonials.map((t) => ({ ...t })) ?? [],
  };
}

function inputOf(values: Values) {
  return {
    ...values,
    address: values.address
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  };
}

/** `/owner/business` */
export function BusinessPage() {
  const [answer, reload] = useResource<BusinessAnswer>(businessRoutes.view.path);
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 max-w-prose text-ink-700">{copy.intro}</p>
      <Loaded resource={answer} reload={reload}>
        {(data) => <BusinessForm answer={data} />}
      </Loaded>
    </>
  );
}

function BusinessForm({ answer: loaded }: { answer: BusinessAnswer }) {
  const notify = useNotify();
  const id = useId();
  const [answer, setAnswer] = useState(loaded);
  const [values, setValues] = useState<Values>(() => valuesOf(loaded));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [focusOn, setFocusOn] = useState<{ key: string } | null>(null);
  const fieldId = (key: string) => `${id}-${key.replace(/\./g, '-')}`;

  useEffect(() => {
    if (focusOn) document.getElementById(fieldId(focusOn.key))?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusOn]);

  /** A field's message goes as soon as the field is changed: it is checked again on save. */
  const clearError = (key: string) =>
    setErrors((all) => {
      const kept = Object.entries(all).filter(([k]) => k !== key && !k.startsWith(`${key}.`));
      return kept.length === Object.keys(all).length ? all : Object.fromEntries(kept);
    });
  const set = (name: keyof Omit<Values, 'testimonials'>) => (value: string) => {
    clearError(name);
    setValues((v) => ({ ...v, [name]: value }));
  };
  const setTestimonial = (index: number, change: Partial<Required<TestimonialInput>>) => {
    for (const field of Object.keys(change)) clearError(`testimonials.${index}.${field}`);
    setValues((v) => ({
      ...v,
      testimonials: v.testimonials.map((t, i) => (i === index ? { ...t, ...change } : t)),
    }));
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const input = inputOf(values);
    const parsed = BusinessInputSchema.safeParse(input);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path.join('.');
        if (!(key in found)) found[key] = issue.message;
      }
      setErrors(found);
      setFocusOn({ key: Object.keys(found)[0] ?? 'name' });
      return;
    }
    setSaving(true);
    // The version the form was filled from: a save made from an older one is refused, text kept.
    const result = await post<BusinessAnswer>(businessRoutes.save.path, { ...input, basedOn: answer.updatedAt });
    setSaving(false);
    if (!result.ok) {
      if (result.status === 401) return;
      const fieldErrors = Object.fromEntries(
        Object.entries(result.fieldErrors ?? {}).map(([k, v]) => [k, String(v)]),
      );
      setErrors(fieldErrors);
      const first = Object.keys(fieldErrors)[0];
      if (first) setFocusOn({ key: first });
      notify({ tone: 'error', text: result.error });
      return;
    }
    setErrors({});
    setAnswer(result.data);
    notify({ tone: 'success', text: copy.saved });
  }

  const text = (name: keyof Omit<Values, 'testimonials'>, label: string, hint?: string, max?: number) => (
    <TextField
      id={fieldId(name)}
      name={name}
      label={label}
      hint={hint}
      value={values[name]}
      onChange={set(name)}
      maxLength={max}
      error={errors[name]}
      validated
    />
  );

  return (
    <>
      <p className="mt-4 text-sm text-ink-700">
        {answer.updatedAt && answer.updatedBy
          ? copy.lastSaved(formatDateTime(answer.updatedAt), answer.updatedBy)
          : copy.notSetYet}
      </p>
      <form noValidate onSubmit={(e) => void save(e)} className="mt-6 grid max-w-2xl gap-2">
        <Section id="business-details" heading={copy.detailsHeading}>
          {text('name', copy.name, copy.nameHint, BUSINESS_LIMITS.name)}
          <Field id={fieldId('email')} label={copy.email} error={errors.email} validated required>
            {(control) => (
              <input
                {...control}
                type="email"
                name="email"
                autoComplete="off"
                maxLength={BUSINESS_LIMITS.email}
                value={values.email}
                onChange={(e) => set('email')(e.target.value)}
                className="field-input"
              />
            )}
          </Field>
          {text('phone', copy.phone, copy.phoneHint, BUSINESS_LIMITS.phone)}
          <Field
            id={fieldId('address')}
            label={copy.address}
            hint={copy.addressHint}
            error={errors.address}
            validated
          >
            {(control) => (
              <textarea
                {...control}
                name="address"
                rows={5}
                value={values.address}
                onChange={(e) => set('address')(e.target.value)}
                className="field-input"
              />
            )}
          </Field>
          {text('companyNumber', copy.companyNumber, copy.companyNumberHint, BUSINESS_LIMITS.companyNumber)}
        </Section>

        <Section id="business-founder" heading={copy.founderHeading} className="mt-6">
          {text('founderName', copy.founderName, undefined, BUSINESS_LIMITS.founderName)}
          <Field id={fieldId('founderBio')} label={copy.founderBio} error={errors.founderBio} validated>
            {(control) => (
              <textarea
                {...control}
                name="founderBio"
                rows={5}
                maxLength={BUSINESS_LIMITS.founderBio}
                value={values.founderBio}
                onChange={(e) => set('founderBio')(e.target.value)}
                className="field-input"
              />
            )}
          </Field>
        </Section>

        <Section id="business-testimonials" heading={copy.testimonialsHeading} className="mt-6">
          <p className="mb-4 max-w-prose text-sm text-ink-700">{copy.testimonialsIntro}</p>
          {errors.testimonials ? (
            <p role="alert" className="field-error">
              {errors.testimonials}
            </p>
          ) : null}
          {values.testimonials.map((t, i) => {
            const key = (name: string) => `testimonials.${i}.${name}`;
            return (
              <fieldset key={i} className="mb-4 rounded border border-ink-200 p-4">
                <legend className="px-1 font-semibold">{copy.testimonial(i + 1)}</legend>
                <Field id={fieldId(key('quote'))} label={copy.quote} error={errors[key('quote')]} validated>
                  {(control) => (
                    <textarea
                      {...control}
                      rows={3}
                      maxLength={BUSINESS_LIMITS.quote}
                      value={t.quote}
                      onChange={(e) => setTestimonial(i, { quote: e.target.value })}
                      className="field-input"
                    />
                  )}
                </Field>
                {(
                  [
                    ['author', copy.author, BUSINESS_LIMITS.author],
                    ['role', copy.role, BUSINESS_LIMITS.role],
                    ['city', copy.city, BUSINESS_LIMITS.city],
                  ] as const
                ).map(([name, label, max]) => (
                  <TextField
                    key={name}
                    id={fieldId(key(name))}
                    name={key(name)}
                    label={label}
                    value={t[name]}
                    maxLength={max}
                    onChange={(value) => setTestimonial(i, { [name]: value })}
                    error={errors[key(name)]}
                    validated
                  />
                ))}
                <DateField
                  id={fieldId(key('givenOn'))}
                  label={copy.givenOn}
                  value={t.givenOn}
                  error={errors[key('givenOn')]}
                  onChange={(value) => setTestimonial(i, { givenOn: value })}
                />
                <CheckboxField
                  className="mb-3"
                  label={copy.real}
                  checked={t.real}
                  onChange={(real) => setTestimonial(i, { real })}
                />
                <DateField
                  id={fieldId(key('permissionOn'))}
                  label={copy.permission}
                  hint={copy.permissionHint}
                  value={t.permissionOn}
                  error={errors[key('permissionOn')]}
                  onChange={(value) => setTestimonial(i, { permissionOn: value })}
                />
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() =>
                    setValues((v) => ({ ...v, testimonials: v.testimonials.filter((_, j) => j !== i) }))
                  }
                >
                  {copy.removeTestimonial(i + 1)}
                </button>
              </fieldset>
            );
          })}
          {values.testimonials.length < BUSINESS_LIMITS.testimonials ? (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() =>
                setValues((v) => ({ ...v, testimonials: [...v.testimonials, emptyTestimonial()] }))
              }
            >
              {copy.addTestimonial}
            </button>
          ) : null}
        </Section>

        <div className="mt-6">
          <SubmitButton busy={saving} label={copy.save} busyLabel={copy.saving} />
        </div>
      </form>
      <PhotoSection answer={answer} founderName={values.founderName} onChanged={setAnswer} />
    </>
  );
}

function DateField(props: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint} error={props.error} validated>
      {(control) => (
        <input
          {...control}
          type="date"
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          className="field-input max-w-xs"
        />
      )}
    </Field>
  );
}

/** The founder's photo: chosen, read in the browser, sent as base64; the server checks its bytes. */
function PhotoSection({
  answer,
  founderName,
  onChanged,
}: {
  answer: BusinessAnswer;
  founderName: string;
  onChanged: (answer: BusinessAnswer) => void;
}) {
  const notify = useNotify();
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  async function upload(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file || busy) return;
    if (file.size > PHOTO_LIMITS.bytes) {
      setError(imageRefusals.tooHeavy('photo', PHOTO_LIMITS));
      return;
    }
    setBusy(true);
    const result = await post<BusinessAnswer>(businessRoutes.photo.path, { data: await fileAsBase64(file) });
    setBusy(false);
    if (!result.ok) {
      if (result.status !== 401) setError(result.error);
      return;
    }
    setError('');
    onChanged(result.data);
    notify({ tone: 'success', text: copy.photoSaved });
  }

  async function remove() {
    setBusy(true);
    const result = await post<BusinessAnswer>(businessRoutes.removePhoto.path);
    setBusy(false);
    if (result.ok) {
      onChanged(result.data);
      notify({ tone: 'success', text: copy.photoRemoved });
    }
  }

  return (
    <Section id="business-photo" heading={copy.photo} className="mt-8 max-w-2xl">
      {answer.photo ? (
        <img
          src={answer.photo.path}
          alt={copy.photoAlt(founderName)}
          width={160}
          height={Math.round((160 * answer.photo.height) / answer.photo.width)}
          className="mb-4 rounded"
        />
      ) : (
        <p className="mb-4 text-sm text-ink-700">{copy.noPhoto}</p>
      )}
      <label htmlFor={inputId} className="field-label">
        {copy.uploadPhoto}
        <span className="ml-1 font-normal text-ink-600">({copy.photoHint})</span>
      </label>
      <input
        id={inputId}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        disabled={busy}
        aria-describedby={`${inputId}-error`}
        onChange={(e) => void upload(e)}
        className="block"
      />
      <p id={`${inputId}-error`} role="alert" className="field-error min-h-5">
        {busy ? copy.uploadingPhoto : error}
      </p>
      {answer.photo ? (
        <button
          type="button"
          className="btn btn-secondary mt-2"
          disabled={busy}
          onClick={() => void remove()}
        >
          {copy.removePhoto}
        </button>
      ) : null}
    </Section>
  );
}

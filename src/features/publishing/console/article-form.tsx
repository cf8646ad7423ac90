/**
 * Writing an article: Title, Summary, Address (the slug), Date, Tax year and Text (Markdown), with
 * the limits of ArticleInputSchema (ARTICLE_LIMITS), beside its live preview. "Save" sends the
 * version the page loaded (or last saved): when another tab or window has saved since, the server
 * refuses, and the page says so beside the button and keeps every word typed. The server's field
 * errors are shown by their fields, the first of them focused. A new article's address follows its
 * title until the owner types one. `/owner/articles/new` is the form and its preview alone.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { articlesCopy as copy } from '~/content/publishing-console';
import { Field, SubmitButton } from '~/components/console/fields';
import { useNotify } from '~/components/console/notices';
import { page } from '~/components/console/paths';
import { BackLink, PageHeading, Section } from '~/components/console/page';
import {
  ARTICLE_LIMITS,
  articleRoutes,
  slugFromTitle,
  type ArticleDetail,
} from '../articles-console-contract';
import {
  ARTICLE_FIELDS,
  articlePage,
  differs,
  emptyArticle,
  inputOf,
  postTo,
  valuesOf,
  type ArticleValues,
} from './article-api';
import { LivePreview } from './article-preview';

type ArticleErrors = Partial<Record<keyof ArticleValues, string>>;

/** The server's field errors, for the form's own fields. */
function errorsOf(fieldErrors: Record<string, unknown> | undefined): ArticleErrors {
  const errors: ArticleErrors = {};
  for (const name of ARTICLE_FIELDS) {
    const value = fieldErrors?.[name];
    if (value !== undefined) errors[name] = String(Array.isArray(value) ? (value[0] as unknown) : value);
  }
  return errors;
}

/**
 * The form's state: the values typed, the server's errors, a refused stale save (`conflict`),
 * whether it differs from the saved article (`dirty`), `save`, which hands the saved article to
 * `onSaved`, and `reset`, which shows another saved version (a restore).
 */
export function useArticleForm(article: ArticleDetail | undefined, onSaved: (saved: ArticleDetail) => void) {
  const notify = useNotify();
  const [initial] = useState<ArticleValues>(() => (article ? valuesOf(article) : emptyArticle()));
  const [values, setValues] = useState<ArticleValues>(initial);
  const [errors, setErrors] = useState<ArticleErrors>({});
  const [conflict, setConflict] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // A new article's address follows its title until the owner types one.
  const [slugTyped, setSlugTyped] = useState(!!article);
  // The field to focus after a refusal (a new object each time, so the same field is focused again).
  const [focusOn, setFocusOn] = useState<{ name: keyof ArticleValues } | null>(null);
  const id = useId();
  const ids = Object.fromEntries(ARTICLE_FIELDS.map((name) => [name, `${id}-${name}`])) as Record<
    keyof ArticleValues,
    string
  >;
  const dirty = differs(values, article ? valuesOf(article) : initial);

  // The first field in error takes focus once its error is on the page (a render after the answer).
  useEffect(() => {
    if (focusOn) document.getElementById(`${id}-${focusOn.name}`)?.focus();
  }, [focusOn, id]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    setSaving(true);
    const sent = values;
    const input = inputOf(sent);
    const result = article
      ? await postTo(articleRoutes.save, { id: article.id }, { ...input, version: article.version })
      : await postTo(articleRoutes.create, {}, input);
    setSaving(false);
    if (!result.ok) {
      // 401 has already sent the console back to the sign-in page.
      if (result.status === 401) return;
      const fieldErrors = errorsOf(result.fieldErrors);
      setErrors(fieldErrors);
      const first = ARTICLE_FIELDS.find((name) => fieldErrors[name]);
      if (first) setFocusOn({ name: first });
      if (result.status === 409 && !first) {
        // Another tab or window saved since: said beside the button, every word typed kept.
        setConflict(result.error);
        return;
      }
      setConflict(null);
      notify({ tone: 'error', text: result.error });
      return;
    }
    setErrors({});
    setConflict(null);
    // What was typed while the save was on its way stays; otherwise the form shows the saved text.
    setValues((now) => (now === sent ? valuesOf(result.data) : now));
    onSaved(result.data);
  }

  function set(name: keyof ArticleValues) {
    return (e: { target: { value: string } }) => {
      const value = e.target.value;
      if (name === 'slug') setSlugTyped(true);
      setValues((v) => ({
        ...v,
        [name]: value,
        ...(name === 'title' && !slugTyped ? { slug: slugFromTitle(value) } : {}),
      }));
    };
  }

  /** Shows a version the server has saved (a restore), in place of what the form holds. */
  function reset(saved: ArticleDetail) {
    setValues(valuesOf(saved));
    setErrors({});
    setConflict(null);
  }

  return {
    values,
    errors,
    conflict,
    saving,
    ids,
    dirty,
    save,
    set,
    reset,
    published: !!article?.publishedAt,
  };
}

export type ArticleFormState = ReturnType<typeof useArticleForm>;

/** The six fields, the save button, the unsaved line and the refusal of a stale save. */
export function ArticleForm({
  form,
  isNew = false,
  unsavedId,
}: {
  form: ArticleFormState;
  isNew?: boolean;
  /** The id of the line that says there are unsaved changes (the publishing buttons point to it). */
  unsavedId?: string;
}) {
  const { values, errors, ids, saving, set, dirty, conflict } = form;
  return (
    <form noValidate onSubmit={(e) => void form.save(e)} className="mt-4 grid gap-y-1">
      <Field
        id={ids.title}
        label={copy.titleLabel}
        hint={copy.titleHint(ARTICLE_LIMITS.title)}
        error={errors.title}
        validated
        required
      >
        {(control) => (
          <input
            {...control}
            type="text"
            name="title"
            maxLength={ARTICLE_LIMITS.title}
            autoComplete="off"
            value={values.title}
            onChange={set('title')}
            className="field-input"
          />
        )}
      </Field>
      <Field
        id={ids.summary}
        label={copy.summaryLabel}
        hint={copy.summaryHint(ARTICLE_LIMITS.summary)}
        error={errors.summary}
        validated
        required
      >
        {(control) => (
          <textarea
            {...control}
            name="summary"
            rows={3}
            maxLength={ARTICLE_LIMITS.summary}
            value={values.summary}
            onChange={set('summary')}
            className="field-input"
          />
        )}
      </Field>
      <Field
        id={ids.slug}
        label={copy.slugLabel}
        hint={(form.published ? copy.slugPublishedHint : copy.slugHint)(ARTICLE_LIMITS.slug)}
        error={errors.slug}
        validated
        required
      >
        {(control) => (
          <input
            {...control}
            type="text"
            name="slug"
            maxLength={ARTICLE_LIMITS.slug}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={values.slug}
            onChange={set('slug')}
            className="field-input font-mono text-sm"
          />
        )}
      </Field>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <Field
          id={ids.date}
          label={copy.dateLabel}
          hint={copy.dateHint}
          error={errors.date}
          validated
          required
        >
          {(control) => (
            <input
              {...control}
              type="date"
              name="date"
              value={values.date}
              onChange={set('date')}
              className="field-input"
            />
          )}
        </Field>
        <Field
          id={ids.taxYear}
          label={copy.taxYearLabel}
          hint={copy.taxYearHint}
          error={errors.taxYear}
          validated
        >
          {(control) => (
            <input
              {...control}
              type="text"
              name="taxYear"
              maxLength={7}
              autoComplete="off"
              inputMode="numeric"
              value={values.taxYear}
              onChange={set('taxYear')}
              className="field-input"
            />
          )}
        </Field>
      </div>
      <Field
        id={ids.body}
        label={copy.bodyLabel}
        hint={copy.bodyHint(ARTICLE_LIMITS.body)}
        error={errors.body}
        validated
        required
      >
        {(control) => (
          <textarea
            {...control}
            name="body"
            rows={24}
            maxLength={ARTICLE_LIMITS.body}
            value={values.body}
            onChange={set('body')}
            className="field-input font-mono text-sm"
          />
        )}
      </Field>
      {/* Always in the page, so that its sentence is read out when it comes (a live region). */}
      <div role="alert">
        {conflict ? (
          <div className="mb-4 rounded-lg border-l-4 border-danger-700 bg-white px-4 py-3">
            <p className="font-semibold text-danger-700">{copy.staleHeading}</p>
            <p className="mt-1 wrap-anywhere text-ink-900">{conflict}</p>
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <SubmitButton busy={saving} label={isNew ? copy.saveDraft : copy.save} busyLabel={copy.saving} />
        {dirty && !isNew ? (
          <p id={unsavedId} className="font-semibold text-brand-800">
            {copy.unsaved}
          </p>
        ) : null}
      </div>
    </form>
  );
}

/** The form and its live preview, side by side on a wide screen. */
export function WriteAndPreview({
  form,
  isNew,
  unsavedId,
}: {
  form: ArticleFormState;
  isNew?: boolean;
  unsavedId?: string;
}) {
  const previewId = useId();
  return (
    <div className="mt-8 grid items-start gap-8 lg:grid-cols-2">
      <Section id={`${previewId}-write`} heading={copy.writeHeading} className="card min-w-0">
        <ArticleForm form={form} isNew={isNew} unsavedId={unsavedId} />
      </Section>
      <LivePreview id={`${previewId}-preview`} values={form.values} />
    </div>
  );
}

/** `/owner/articles/new`: the form and its preview; saved, the draft's page opens. */
export function NewArticlePage() {
  const navigate = useNavigate();
  const form = useArticleForm(undefined, (saved) => {
    void navigate(articlePage(saved.id), { state: { notice: { tone: 'success', text: copy.created } } });
  });
  return (
    <>
      <BackLink to={page('articles')}>{copy.back}</BackLink>
      <PageHeading title={copy.newTitle}>{copy.newTitle}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.newIntro}</p>
      <WriteAndPreview form={form} isNew />
    </>
  );
}

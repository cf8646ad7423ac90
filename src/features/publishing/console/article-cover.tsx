/**
 * An article's cover image in its editor (decision 050): the cover as it stands (or none), a file
 * to upload (its limits said beside it: COVER_LIMITS) and its alt text, required with a cover;
 * "Upload cover" (or, with a cover, "Save cover": a new file, or the description alone) and
 * "Remove cover" (after a dialog). The page checks what it can before sending (the file's size, the
 * alt text, with the server's own sentences); the server checks the file's bytes and says why it
 * refuses one, shown by its field, which takes focus. The cover is not part of the article's saves,
 * so it waits for none of them.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { articlesCopy as copy } from '~/content/publishing-console';
import { Loaded, useResource } from '~/components/console/data';
import { ConfirmButton } from '~/components/console/dialog';
import { Field, SubmitButton } from '~/components/console/fields';
import { useAction, useNotify } from '~/components/console/notices';
import { Section } from '~/components/console/page';
import { fileAsBase64, IMAGE_TYPES, imageLimitsHint, imageRefusals } from '~/lib/image-upload';
import {
  COVER_ALT_MAX,
  COVER_LIMITS,
  COVER_NO_FILE,
  CoverUploadSchema,
  coverRoutes,
  type CoverAnswer,
  type CoverDetail,
} from '../article-covers-console-contract';
import type { ArticleDetail } from '../articles-console-contract';
import { apiPath, postTo } from './article-api';

type CoverErrors = { data?: string; alt?: string };

const first = (value: unknown) =>
  value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value);

/** The section: loads the article's cover, then its form. */
export function CoverSection({ article }: { article: ArticleDetail }) {
  const [resource, reload] = useResource<CoverAnswer>(apiPath(coverRoutes.view, { id: article.id }));
  // The cover as this page's own requests last gave it.
  const [current, setCurrent] = useState<CoverAnswer | null>(null);
  const answer = current ?? (resource.state === 'ready' ? resource.data : null);
  return (
    <Section id="article-cover" heading={copy.coverHeading} className="card mt-8">
      <p className="mt-2 text-ink-700">{copy.coverIntro}</p>
      {answer ? (
        <CoverForm article={article} cover={answer.cover} onChanged={setCurrent} />
      ) : (
        <Loaded resource={resource} reload={reload}>
          {() => null}
        </Loaded>
      )}
    </Section>
  );
}

function CoverForm({
  article,
  cover,
  onChanged,
}: {
  article: ArticleDetail;
  cover: CoverDetail | null;
  onChanged: (answer: CoverAnswer) => void;
}) {
  const notify = useNotify();
  const { busy: removing, run } = useAction();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState(cover?.alt ?? '');
  const [errors, setErrors] = useState<CoverErrors>({});
  const [saving, setSaving] = useState(false);
  // The field to focus once its error is on the page (a new object each time).
  const [focusOn, setFocusOn] = useState<{ name: keyof CoverErrors } | null>(null);
  useEffect(() => {
    if (focusOn) document.getElementById(`${id}-${focusOn.name}`)?.focus();
  }, [focusOn, id]);

  const refuse = (found: CoverErrors) => {
    setErrors(found);
    const name = found.data ? 'data' : found.alt ? 'alt' : null;
    if (name) setFocusOn({ name });
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    // What the server would refuse, said before the file travels.
    const altChecked = CoverUploadSchema.shape.alt.safeParse(alt);
    const found: CoverErrors = {
      data:
        file && file.size > COVER_LIMITS.bytes
          ? imageRefusals.tooHeavy('image', COVER_LIMITS)
          : !file && !cover
            ? COVER_NO_FILE
            : undefined,
      alt: altChecked.success ? undefined : altChecked.error.issues[0]?.message,
    };
    if (found.data || found.alt) return refuse(found);
    setSaving(true);
    const body = { alt: altChecked.data, ...(file ? { data: await fileAsBase64(file) } : {}) };
    const result = await postTo(coverRoutes.save, { id: article.id }, body);
    setSaving(false);
    if (!result.ok) {
      // 401 has already sent the console back to the sign-in page.
      if (result.status === 401) return;
      const fields = { data: first(result.fieldErrors?.data), alt: first(result.fieldErrors?.alt) };
      if (fields.data || fields.alt) return refuse(fields);
      notify({ tone: 'error', text: result.error });
      return;
    }
    setErrors({});
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
    setAlt(result.data.cover?.alt ?? alt);
    onChanged(result.data);
    notify({ tone: 'success', text: article.status === 'published' ? copy.coverSavedLive : copy.coverSaved });
  }

  function remove() {
    void run(
      'remove',
      () => postTo(coverRoutes.remove, { id: article.id }),
      () => copy.coverRemoved,
    ).then((done) => {
      if (!done) return;
      setAlt('');
      setErrors({});
      onChanged(done);
      // The button is gone: the file's field is where the owner goes on.
      setFocusOn({ name: 'data' });
    });
  }

  return (
    <>
      {cover ? (
        <figure className="mt-4">
          <img
            src={cover.preview}
            alt={cover.alt}
            width={cover.width}
            height={cover.height}
            className="h-auto w-full max-w-md rounded-lg border border-ink-100"
          />
          <figcaption className="mt-1 text-sm text-ink-600">
            {copy.coverSize(cover.width, cover.height)}
          </figcaption>
        </figure>
      ) : (
        <p className="mt-4 text-ink-700">{copy.noCover}</p>
      )}
      <form noValidate onSubmit={(e) => void save(e)} className="mt-4">
        <Field
          id={`${id}-data`}
          label={cover ? copy.coverReplaceLabel : copy.coverFileLabel}
          hint={imageLimitsHint(COVER_LIMITS)}
          error={errors.data}
          validated
          required={!cover}
        >
          {(control) => (
            <input
              {...control}
              ref={fileInput}
              type="file"
              name="cover"
              accept={IMAGE_TYPES.join(',')}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              className="block w-full min-w-0 text-sm"
            />
          )}
        </Field>
        <Field
          id={`${id}-alt`}
          label={copy.coverAltLabel}
          hint={copy.coverAltHint(COVER_ALT_MAX)}
          error={errors.alt}
          validated
          required
        >
          {(control) => (
            <textarea
              {...control}
              name="alt"
              rows={2}
              maxLength={COVER_ALT_MAX}
              value={alt}
              onChange={(e) => setAlt(e.target.value)}
              className="field-input"
            />
          )}
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton
            busy={saving}
            label={cover ? copy.saveCover : copy.uploadCover}
            busyLabel={copy.savingCover}
          />
          {cover ? (
            <ConfirmButton
              label={removing ? copy.removingCover : copy.removeCover}
              title={copy.removeCoverTitle}
              text={copy.removeCoverText}
              confirmLabel={copy.removeCover}
              cancelLabel={copy.keepCover}
              disabled={saving || removing !== null}
              onConfirm={remove}
            />
          ) : null}
        </div>
      </form>
    </>
  );
}

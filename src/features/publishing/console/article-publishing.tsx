/**
 * Publishing an article: where it stands in words; "Publish now" (after a dialog) for a draft, a
 * scheduled or an unpublished article; a UK time to publish it at, and "Unschedule"; "Unpublish"
 * (after a dialog) for a published one. Each acts on the saved version the page shows (the server
 * refuses it, as a save, when another tab or window saved since), so with unsaved changes in the
 * form they wait (the line that says so describes them). Each answers with the article as it now
 * stands; a control that an action removes hands focus to the section's heading.
 */
import type { RefObject } from 'react';
import { articlesCopy as copy } from '~/content/publishing-console';
import type { ApiResult } from '~/lib/api-client';
import { ConfirmButton } from '~/components/console/dialog';
import { useAction } from '~/components/console/notices';
import { ScheduleForm, ukTime } from '~/components/console/schedule-form';
import { articleRoutes, type ArticleDetail } from '../articles-console-contract';
import { postTo } from './article-api';

type Changed = (article: ArticleDetail) => void;

const canGoLive = (article: ArticleDetail) => article.status !== 'published';

export function PublishSection({
  article,
  onChange,
  dirty,
  unsavedId,
  headingRef,
  onDone,
}: {
  article: ArticleDetail;
  onChange: Changed;
  dirty: boolean;
  unsavedId: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onDone: () => void;
}) {
  const { busy, run } = useAction();
  const blocked = dirty || busy !== null;
  const describedBy = dirty ? unsavedId : undefined;
  const { status } = article;

  const act = (
    key: 'publish' | 'unschedule' | 'unpublish',
    request: () => Promise<ApiResult<ArticleDetail>>,
    text: string,
  ) =>
    void run(key, request, () => text).then((done) => {
      if (!done) return;
      onChange(done);
      onDone();
    });

  const note =
    status === 'scheduled'
      ? copy.scheduledNote(ukTime(article.publishAt, article.publishAtLocal))
      : status === 'published'
        ? copy.publishedNote
        : status === 'unpublished'
          ? copy.unpublishedNote
          : copy.draftNote;

  return (
    <section aria-labelledby="article-publish" className="card mt-8">
      <h2 id="article-publish" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
        {copy.publishHeading}
      </h2>
      <p className="mt-2 rounded-lg border-l-4 border-brand-700 bg-brand-50 px-4 py-3 text-ink-900">{note}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        {canGoLive(article) ? (
          <ConfirmButton
            label={busy === 'publish' ? copy.publishing : copy.publishNow}
            title={copy.publishTitle}
            text={copy.publishText}
            confirmLabel={copy.publishNow}
            cancelLabel={copy.notYet}
            className="btn btn-primary"
            disabled={blocked}
            describedBy={describedBy}
            onConfirm={() =>
              act(
                'publish',
                () => postTo(articleRoutes.publish, { id: article.id }, { version: article.version }),
                copy.published,
              )
            }
          />
        ) : null}
        {status === 'scheduled' ? (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy !== null}
            onClick={() =>
              act('unschedule', () => postTo(articleRoutes.unschedule, { id: article.id }), copy.unscheduled)
            }
          >
            {busy === 'unschedule' ? copy.unscheduling : copy.unschedule}
          </button>
        ) : null}
        {status === 'published' ? (
          <ConfirmButton
            label={busy === 'unpublish' ? copy.unpublishing : copy.unpublish}
            title={copy.unpublishTitle}
            text={copy.unpublishText}
            confirmLabel={copy.unpublish}
            cancelLabel={copy.keepPublished}
            disabled={busy !== null}
            onConfirm={() =>
              act('unpublish', () => postTo(articleRoutes.unpublish, { id: article.id }), copy.unpublished)
            }
          />
        ) : null}
      </div>
      {canGoLive(article) ? (
        <ScheduleForm
          // A new schedule's time, or the scheduled one, starts the field.
          key={article.publishAtLocal ?? ''}
          initial={article.publishAtLocal ?? ''}
          blocked={blocked}
          describedBy={describedBy}
          words={{
            heading: copy.scheduleHeading,
            label: copy.publishAt,
            hint: copy.publishAtHint,
            chooseTime: copy.chooseTime,
            schedule: copy.schedule,
            scheduling: copy.scheduling,
            scheduled: copy.scheduled,
          }}
          submit={(at) => postTo(articleRoutes.schedule, { id: article.id }, { at, version: article.version })}
          whenOf={(done) => ukTime(done.publishAt, done.publishAtLocal)}
          onChange={onChange}
        />
      ) : null}
    </section>
  );
}

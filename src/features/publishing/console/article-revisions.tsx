/**
 * An article's saved versions: every save, newest first, when and by whom; "View" shows one (its
 * fields and its text as the page would show it), "Restore" (after a dialog) saves its words as a
 * new version. The list is asked for again when the article's version changes (a save, a restore).
 * With unsaved changes in the form, restoring waits: it would replace what is typed.
 */
import { useEffect, useRef, useState } from 'react';
import { articlesCopy as copy } from '~/content/publishing-console';
import { Loaded, useResource } from '~/components/console/data';
import { formatDateTime } from '~/components/console/dates';
import { ConfirmButton } from '~/components/console/dialog';
import { useAction } from '~/components/console/notices';
import { Badge, DetailRow, Section } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { DataTable, DateCell, rowTh, td } from '~/components/console/table';
import type { AnswerOf } from '~/contract/route';
import {
  articleRoutes,
  type ArticleDetail,
  type ArticleRevisionDetail,
  type ArticleRevisionSummary,
} from '../articles-console-contract';
import { apiPath, postTo } from './article-api';
import { ArticleBody } from './article-preview';

const IMPORT_AUTHOR = 'import';
const whoSaved = (savedBy: string) => (savedBy === IMPORT_AUTHOR ? copy.importedBy : savedBy);

const columns = [
  copy.revisionVersion,
  copy.revisionSaved,
  copy.revisionBy,
  copy.revisionTitle,
  copy.revisionActions,
];

export function RevisionsSection({
  article,
  onRestored,
  dirty,
  unsavedId,
}: {
  article: ArticleDetail;
  /** The article as the restore saved it. */
  onRestored: (article: ArticleDetail) => void;
  dirty: boolean;
  unsavedId: string;
}) {
  const [list, reload] = useResource<AnswerOf<typeof articleRoutes.revisions>>(
    apiPath(articleRoutes.revisions, { id: article.id }),
  );
  // Saved again (here, or restored), the list is asked for again.
  const listed = useRef(article.version);
  useEffect(() => {
    if (listed.current === article.version) return;
    listed.current = article.version;
    reload();
  }, [article.version, reload]);
  const [viewing, setViewing] = useState<string | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const { busy, run } = useAction();

  const restore = (revision: ArticleRevisionSummary) =>
    void run(
      'restore',
      () =>
        postTo(
          articleRoutes.restore,
          { id: article.id, revisionId: revision.id },
          { version: article.version },
        ),
      (done) => copy.restored(revision.version, done.version),
    ).then((done) => {
      if (!done) return;
      setViewing(null);
      onRestored(done);
    });

  return (
    <Section id="article-revisions" heading={copy.revisionsHeading} className="card mt-8">
      <p className="mt-1 max-w-prose text-ink-700">{copy.revisionsIntro}</p>
      <LoadedList resource={list} reload={reload} count={copy.revisionsCount}>
        {(data) => (
          <DataTable label={copy.revisionsLabel} minWidth="min-w-[44rem]" columns={columns}>
            {data.items.map((revision) => {
              const current = revision.version === article.version;
              const rowId = `revision-${revision.id}`;
              return (
                <tr key={revision.id}>
                  <th scope="row" id={rowId} className={`${rowTh} tabular-nums`}>
                    {revision.version}
                    {current ? (
                      <>
                        {' '}
                        <Badge tone="good">{copy.current}</Badge>
                      </>
                    ) : null}
                  </th>
                  <DateCell iso={revision.savedAt} />
                  <td className={`${td} wrap-anywhere`}>{whoSaved(revision.savedBy)}</td>
                  <td className={`${td} wrap-anywhere`}>{revision.title}</td>
                  <td className={td}>
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        className="btn btn-secondary min-h-10 px-3 py-1.5"
                        aria-label={copy.viewLabel(revision.version)}
                        aria-expanded={viewing === revision.id}
                        aria-controls={viewing === revision.id ? 'article-revision' : undefined}
                        onClick={(e) => {
                          opener.current = e.currentTarget;
                          setViewing((was) => (was === revision.id ? null : revision.id));
                        }}
                      >
                        {copy.view}
                      </button>
                      {current ? null : (
                        <ConfirmButton
                          label={copy.restore}
                          title={copy.restoreTitle(revision.version)}
                          text={copy.restoreText}
                          confirmLabel={copy.restore}
                          className="btn btn-secondary min-h-10 px-3 py-1.5"
                          disabled={dirty || busy !== null}
                          describedBy={dirty ? `${rowId} ${unsavedId}` : rowId}
                          onConfirm={() => restore(revision)}
                        />
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </LoadedList>
      {viewing ? (
        <RevisionView
          key={viewing}
          articleId={article.id}
          revisionId={viewing}
          onClose={() => {
            setViewing(null);
            opener.current?.focus();
          }}
        />
      ) : null}
    </Section>
  );
}

/** One saved version: its fields, and its text as the article's page would show it. */
function RevisionView({
  articleId,
  revisionId,
  onClose,
}: {
  articleId: string;
  revisionId: string;
  onClose: () => void;
}) {
  const [revision, reload] = useResource<ArticleRevisionDetail>(
    apiPath(articleRoutes.revision, { id: articleId, revisionId }),
  );
  const heading = useRef<HTMLHeadingElement>(null);
  const ready = revision.state === 'ready';
  // Opened, the version's heading takes focus, so a screen reader reads what opened.
  useEffect(() => {
    if (ready) heading.current?.focus();
  }, [ready]);
  return (
    <div id="article-revision" className="mt-6 rounded-lg border border-ink-200 bg-ink-50 p-4 sm:p-6">
      <Loaded resource={revision} reload={reload}>
        {(saved) => (
          <section aria-labelledby="article-revision-heading">
            <h3
              id="article-revision-heading"
              ref={heading}
              tabIndex={-1}
              className="text-lg font-semibold text-ink-900 outline-none"
            >
              {copy.revisionHeading(saved.version)}
            </h3>
            <p className="mt-1 text-sm text-ink-700">
              {copy.revisionSavedBy(formatDateTime(saved.savedAt), whoSaved(saved.savedBy))}
            </p>
            <dl className="mt-3">
              <DetailRow label={copy.titleLabel}>{saved.title}</DetailRow>
              <DetailRow label={copy.summaryLabel}>{saved.summary}</DetailRow>
              <DetailRow label={copy.slugLabel}>
                <span className="font-mono text-sm">{saved.slug}</span>
              </DetailRow>
              <DetailRow label={copy.dateLabel}>{saved.date}</DetailRow>
              <DetailRow label={copy.taxYearLabel}>{saved.taxYear ?? copy.noTaxYear}</DetailRow>
            </dl>
            <ArticleBody html={saved.html} className="mt-6 rounded-lg bg-white p-4 wrap-anywhere sm:p-6" />
            <p className="mt-4">
              <button type="button" className="btn btn-secondary" onClick={onClose}>
                {copy.hide}
              </button>
            </p>
          </section>
        )}
      </Loaded>
    </div>
  );
}

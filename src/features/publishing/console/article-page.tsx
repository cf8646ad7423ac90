/**
 * One article's page (`/owner/articles/:id`): where it stands (its status, its page on the site
 * when published, its UK times, a warning when its figures are of an earlier tax year), the form
 * beside its live preview, its cover image, publishing, and its saved versions.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { articlesCopy as copy } from '~/content/publishing-console';
import { Loaded, useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { useNotify } from '~/components/console/notices';
import { page } from '~/components/console/paths';
import { BackLink, DetailRow, PageHeading, Section } from '~/components/console/page';
import { articleRoutes, type ArticleDetail } from '../articles-console-contract';
import { apiPath } from './article-api';
import { CoverSection } from './article-cover';
import { useArticleForm, WriteAndPreview } from './article-form';
import { PublishSection } from './article-publishing';
import { ArticleStatusBadge, DatedBadge } from './articles-page';
import { RevisionsSection } from './article-revisions';

function Details({ article }: { article: ArticleDetail }) {
  return (
    <Section id="article-details" heading={copy.detailsHeading} className="card mt-6" look="hidden">
      {article.datedFigures && article.taxYear ? (
        <p className="mb-3 rounded-lg border-l-4 border-brand-700 bg-brand-50 px-4 py-3 text-ink-900">
          {copy.datedNote(article.taxYear, article.currentTaxYear)}
        </p>
      ) : null}
      <dl>
        <DetailRow label={copy.status}>
          <span className="inline-flex flex-wrap items-center gap-2">
            <ArticleStatusBadge status={article.status} />
            {article.datedFigures && article.taxYear ? <DatedBadge taxYear={article.taxYear} /> : null}
          </span>
        </DetailRow>
        {article.publicPath ? (
          <DetailRow label={copy.publicLink}>
            <a href={article.publicPath} className="text-link break-all" target="_blank" rel="noopener">
              {article.publicPath}
            </a>
          </DetailRow>
        ) : null}
        {article.status === 'scheduled' && article.publishAt ? (
          <DetailRow label={copy.scheduledAt}>
            <DateTime iso={article.publishAt} /> ({copy.publishAtHint})
          </DetailRow>
        ) : null}
        {article.publishedAt ? (
          <DetailRow label={copy.firstPublished}>
            <DateTime iso={article.publishedAt} />
          </DetailRow>
        ) : null}
        <DetailRow label={copy.updatedAt}>
          <DateTime iso={article.updatedAt} />
        </DetailRow>
        <DetailRow label={copy.version}>
          <span className="tabular-nums">{article.version}</span>
        </DetailRow>
      </dl>
    </Section>
  );
}

/** The article's sections, for the article as it now stands (`onChange` gives the newer one). */
export function ArticleEditor({
  article,
  onChange,
}: {
  article: ArticleDetail;
  onChange: (article: ArticleDetail) => void;
}) {
  const notify = useNotify();
  const form = useArticleForm(article, (saved) => {
    onChange(saved);
    notify({ tone: 'success', text: saved.status === 'published' ? copy.savedLive : copy.saved });
  });
  const unsavedId = useId();
  const publishHeading = useRef<HTMLHeadingElement>(null);
  // After an action that removed the control it was run from: the heading of its section.
  const [focusOn, setFocusOn] = useState<object | null>(null);
  useEffect(() => {
    if (focusOn) publishHeading.current?.focus();
  }, [focusOn]);

  return (
    <>
      <Details article={article} />
      <WriteAndPreview form={form} unsavedId={unsavedId} />
      <CoverSection article={article} />
      <PublishSection
        article={article}
        onChange={onChange}
        dirty={form.dirty}
        unsavedId={unsavedId}
        headingRef={publishHeading}
        onDone={() => setFocusOn({})}
      />
      <RevisionsSection
        article={article}
        dirty={form.dirty}
        unsavedId={unsavedId}
        onRestored={(restored) => {
          form.reset(restored);
          onChange(restored);
        }}
      />
    </>
  );
}

/** `/owner/articles/:id` */
export function ArticlePage({ id }: { id: string }) {
  const [resource, reload] = useResource<ArticleDetail>(apiPath(articleRoutes.detail, { id }));
  // The article as the page's own requests last gave it, once it has changed since it loaded.
  const [current, setCurrent] = useState<ArticleDetail | null>(null);
  const article = current ?? (resource.state === 'ready' ? resource.data : null);
  const title = article?.title || copy.articleFallback;
  return (
    <>
      <BackLink to={page('articles')}>{copy.back}</BackLink>
      <PageHeading title={title}>{title}</PageHeading>
      {article ? (
        <ArticleEditor article={article} onChange={setCurrent} />
      ) : (
        <Loaded resource={resource} reload={reload}>
          {() => null}
        </Loaded>
      )}
    </>
  );
}

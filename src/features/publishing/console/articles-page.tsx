/**
 * The Articles page (`/owner/articles`): every article, newest date first, with its status in
 * words, its date, its tax year (and "Dated figures" when that is before the current UK tax year),
 * when it went or goes live, and when it was last saved; and "New article".
 */
import { Link } from 'react-router';
import { consoleCopy } from '~/content/console';
import { articlesCopy as copy } from '~/content/publishing-console';
import { useResource } from '~/components/console/data';
import { formatDateTime } from '~/components/console/dates';
import { Badge, PageHeading, Section } from '~/components/console/page';
import { page } from '~/components/console/paths';
import { LoadedList } from '~/components/console/pager';
import { DataTable, DateCell, rowTh, td } from '~/components/console/table';
import type { AnswerOf } from '~/contract/route';
import { formatLongDate, isIsoDate } from '~/lib/uk-dates';
import { articleRoutes, type ArticleStatus, type ArticleSummary } from '../articles-console-contract';
import { apiPath, articlePage, statusTones } from './article-api';

export function ArticleStatusBadge({ status }: { status: ArticleStatus }) {
  return <Badge tone={statusTones[status]}>{copy.statuses[status] ?? status}</Badge>;
}

/** "Dated figures", with what it means for a screen reader (and a pointer's tooltip). */
export function DatedBadge({ taxYear }: { taxYear: string }) {
  const hint = copy.datedFiguresHint(taxYear);
  return (
    <span title={hint}>
      <Badge tone="warn">{copy.datedFigures}</Badge>
      <span className="sr-only"> {hint}</span>
    </span>
  );
}

/** When it went live, or goes live. */
function liveWords(article: ArticleSummary): string {
  if (article.status === 'scheduled' && article.publishAt)
    return copy.scheduledFor(formatDateTime(article.publishAt));
  if (article.status === 'published' && article.publishedAt)
    return copy.publishedOn(formatDateTime(article.publishedAt));
  return consoleCopy.none;
}

const columns = [copy.articleTitle, copy.status, copy.date, copy.taxYear, copy.live, copy.updatedAt];

/** `/owner/articles` */
export function ArticlesPage() {
  const [list, reload] = useResource<AnswerOf<typeof articleRoutes.list>>(apiPath(articleRoutes.list));
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 max-w-prose text-ink-700">{copy.intro}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={page('articles/new')} className="btn btn-primary">
          {copy.newArticle}
        </Link>
      </div>

      <Section id="articles-list" heading={copy.listHeading} className="mt-8">
        <LoadedList resource={list} reload={reload} empty={copy.empty} count={copy.count}>
          {(data) => (
            <DataTable label={copy.tableLabel} minWidth="min-w-[56rem]" columns={columns}>
              {data.items.map((article) => (
                <tr key={article.id}>
                  <th scope="row" className={`${rowTh} wrap-anywhere`}>
                    <Link to={articlePage(article.id)} className="text-link">
                      {article.title}
                    </Link>
                  </th>
                  <td className={td}>
                    <ArticleStatusBadge status={article.status} />
                  </td>
                  <td className={`${td} whitespace-nowrap`}>
                    {isIsoDate(article.date) ? (
                      <time dateTime={article.date}>{formatLongDate(article.date)}</time>
                    ) : (
                      article.date
                    )}
                  </td>
                  <td className={td}>
                    <span className="inline-flex flex-wrap items-center gap-2">
                      <span className="tabular-nums">{article.taxYear ?? copy.noTaxYear}</span>
                      {article.datedFigures && article.taxYear ? (
                        <DatedBadge taxYear={article.taxYear} />
                      ) : null}
                    </span>
                  </td>
                  <td className={td}>{liveWords(article)}</td>
                  <DateCell iso={article.updatedAt} />
                </tr>
              ))}
            </DataTable>
          )}
        </LoadedList>
      </Section>
    </>
  );
}

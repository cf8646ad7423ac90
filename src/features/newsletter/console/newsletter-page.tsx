/**
 * The Newsletter page (`/owner/newsletter`): the issues, newest first, with their status, their
 * UK times and a short line of their progress; "New issue"; and "Start from an article", which
 * makes a draft from an article of the site and opens it. The subscribers keep their own page.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { consoleCopy } from '~/content/console';
import { newsletterIssuesCopy as copy } from '~/content/newsletter-console';
import { Loaded, useResource } from '~/components/console/data';
import { Field, SubmitButton } from '~/components/console/fields';
import { useNotify } from '~/components/console/notices';
import { page } from '~/components/console/paths';
import { Badge, IfAny, PageHeading, Section } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { DataTable, DateCell, rowTh, td } from '~/components/console/table';
import type { AnswerOf } from '~/contract/route';
import { formatLongDate, isIsoDate } from '~/lib/uk-dates';
import { issueRoutes, type ArticleChoice, type IssueSummary } from '../issues-console-contract';
import { apiPath, issuePage, postTo, statusTones } from './issue-api';

export function IssueStatusBadge({ status }: { status: IssueSummary['status'] }) {
  return <Badge tone={statusTones[status]}>{copy.statuses[status] ?? status}</Badge>;
}

const columns = [
  copy.subject,
  copy.status,
  copy.scheduledFor,
  copy.startedAt,
  copy.finishedAt,
  copy.progress,
];

/** `/owner/newsletter` */
export function NewsletterPage() {
  const [list, reload] = useResource<AnswerOf<typeof issueRoutes.list>>(apiPath(issueRoutes.list));
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 max-w-prose text-ink-700">{copy.intro}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to={page('newsletter/new')} className="btn btn-primary">
          {copy.newIssue}
        </Link>
        <Link to={page('subscribers')} className="btn btn-secondary">
          {copy.subscribersLink}
        </Link>
      </div>

      <StartFromArticle />

      <Section id="newsletter-issues" heading={copy.issuesHeading} className="mt-8">
        <LoadedList resource={list} reload={reload} empty={copy.empty} count={copy.count}>
          {(data) => (
            <DataTable label={copy.tableLabel} minWidth="min-w-[52rem]" columns={columns}>
              {data.items.map((issue) => (
                <tr key={issue.id}>
                  <th scope="row" className={rowTh}>
                    <Link to={issuePage(issue.id)} className="text-link">
                      {issue.subject}
                    </Link>
                  </th>
                  <td className={td}>
                    <IssueStatusBadge status={issue.status} />
                  </td>
                  <DateCell iso={issue.scheduledFor} />
                  <DateCell iso={issue.startedAt} />
                  <DateCell iso={issue.finishedAt} />
                  <td className={`${td} tabular-nums`}>
                    {issue.progress ? copy.progressLine(issue.progress) : consoleCopy.none}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </LoadedList>
      </Section>
    </>
  );
}

/** An article's date as the site writes it ("1 June 2025"), or as given when it is not a date. */
function dayOf(date: string): string {
  const day = date.slice(0, 10);
  return isIsoDate(day) ? formatLongDate(day) : date;
}

/** The articles of the site in a list to choose from, and the button that starts a draft from one. */
function StartFromArticle() {
  const [articles, reload] = useResource<AnswerOf<typeof issueRoutes.articles>>(
    apiPath(issueRoutes.articles),
  );
  return (
    <Section id="newsletter-from-article" heading={copy.fromArticleHeading} className="card mt-8">
      <p className="mt-1 max-w-prose text-ink-700">{copy.fromArticleIntro}</p>
      <Loaded resource={articles} reload={reload}>
        {(data) => (
          <IfAny items={data.items} none={copy.noArticles}>
            <ArticleForm articles={data.items} />
          </IfAny>
        )}
      </Loaded>
    </Section>
  );
}

function ArticleForm({ articles }: { articles: ArticleChoice[] }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const [slug, setSlug] = useState(articles[0]?.slug ?? '');
  const [busy, setBusy] = useState(false);

  async function start(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    const result = await postTo(issueRoutes.fromArticle, undefined, { slug });
    setBusy(false);
    if (!result.ok) {
      // 401 has already sent the console back to the sign-in page.
      if (result.status !== 401) notify({ tone: 'error', text: result.error });
      return;
    }
    const title = articles.find((a) => a.slug === slug)?.title ?? result.data.subject;
    void navigate(issuePage(result.data.id), {
      state: { notice: { tone: 'success', text: copy.fromArticleDone(title) } },
    });
  }

  return (
    <form noValidate onSubmit={(e) => void start(e)} className="mt-4 flex flex-wrap items-end gap-x-4">
      <Field label={copy.article} className="min-w-0 grow basis-72">
        {(control) => (
          <select
            {...control}
            name="slug"
            value={slug}
            onChange={(e) => setSlug(e.target.value)}
            className="field-input"
          >
            {articles.map((article) => (
              <option key={article.slug} value={article.slug}>
                {copy.articleOption(article.title, dayOf(article.date))}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="mb-3">
        <SubmitButton busy={busy} label={copy.fromArticle} busyLabel={copy.fromArticleBusy} />
      </div>
    </form>
  );
}

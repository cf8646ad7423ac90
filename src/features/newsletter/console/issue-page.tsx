/**
 * One issue's page (`/owner/newsletter/:id`): its status and UK times, its progress once it goes
 * out, the form (read-only once it goes out), once sent whether it is on the site's archive, the
 * preview as sent, and the sending controls.
 * While it is sending or paused the page asks for it again every 2 s (a scheduled one every
 * 15 s, to see it start), and stops once it is sent or cancelled, or when the page is left.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { newsletterIssuesCopy as copy } from '~/content/newsletter-console';
import { Loaded, useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { getJson } from '~/components/console/http';
import { useNotify } from '~/components/console/notices';
import { page } from '~/components/console/paths';
import { BackLink, DetailRow, PageHeading, Section } from '~/components/console/page';
import { issueRoutes, type IssueDetail } from '../issues-console-contract';
import { apiPath, isEditable, isGoingOut } from './issue-api';
import { IssueForm, useIssueForm } from './issue-form';
import { IssuePreviewSection } from './issue-preview';
import { ProgressSection, SendSection } from './issue-sending';
import { SiteSection } from './issue-site';
import { IssueStatusBadge } from './newsletter-page';

/** How often the page asks again: while the issue goes out, and while it waits for its time. */
const POLL_MS = 2_000;
const SCHEDULED_POLL_MS = 15_000;

/**
 * Asks for the issue again while it changes on its own, and hands each answer to `onChange`. A
 * change made on the page (a save, an action) drops the question in flight, so an older answer
 * never replaces a newer one. A failure is announced once, and it asks again.
 */
function usePolledIssue(issue: IssueDetail, onChange: (issue: IssueDetail) => void) {
  const notify = useNotify();
  const [retries, setRetries] = useState(0);
  const failing = useRef(false);
  const every = isGoingOut(issue.status) ? POLL_MS : issue.status === 'scheduled' ? SCHEDULED_POLL_MS : 0;
  useEffect(() => {
    if (!every) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      void getJson<IssueDetail>(apiPath(issueRoutes.detail, issue.id), controller.signal).then((result) => {
        if (controller.signal.aborted) return;
        if (result.ok) {
          failing.current = false;
          if (result.data.status === 'sent' && issue.status !== 'sent')
            notify({ tone: 'success', text: copy.finished(result.data.progress?.sent ?? 0) });
          onChange(result.data);
          return;
        }
        // 401 has already sent the console back to the sign-in page.
        if (result.status === 401) return;
        if (!failing.current) notify({ tone: 'error', text: result.error });
        failing.current = true;
        setRetries((n) => n + 1);
      });
    }, every);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [issue, every, retries, notify, onChange]);
}

function Details({ issue }: { issue: IssueDetail }) {
  return (
    <Section id="issue-details" heading={copy.detailsHeading} className="card mt-6" look="hidden">
      <dl>
        <DetailRow label={copy.status}>
          <IssueStatusBadge status={issue.status} />
        </DetailRow>
        {issue.scheduledFor ? (
          <DetailRow label={copy.scheduledFor}>
            <DateTime iso={issue.scheduledFor} /> ({copy.sendAtHint})
          </DetailRow>
        ) : null}
        {issue.startedAt ? (
          <DetailRow label={copy.startedAt}>
            <DateTime iso={issue.startedAt} />
          </DetailRow>
        ) : null}
        {issue.finishedAt ? (
          <DetailRow label={copy.finishedAt}>
            <DateTime iso={issue.finishedAt} />
          </DetailRow>
        ) : null}
        {issue.articleSlug && issue.articlePath ? (
          <DetailRow label={copy.articleSlug}>
            <a href={issue.articlePath} className="text-link break-all">
              {issue.articleSlug}
            </a>
          </DetailRow>
        ) : null}
        <DetailRow label={copy.updatedAt}>
          <DateTime iso={issue.updatedAt} />
        </DetailRow>
      </dl>
    </Section>
  );
}

/** The issue's sections, for the issue as it now stands (`onChange` gives the newer one). */
export function IssueEditor({
  issue,
  onChange,
}: {
  issue: IssueDetail;
  onChange: (issue: IssueDetail) => void;
}) {
  const notify = useNotify();
  usePolledIssue(issue, onChange);
  const form = useIssueForm(issue, (saved) => {
    onChange(saved);
    notify({ tone: 'success', text: copy.saved });
  });
  const unsavedId = useId();
  const progressHeading = useRef<HTMLHeadingElement>(null);
  const sendHeading = useRef<HTMLHeadingElement>(null);
  // After an action that removed the control it was run from: the heading of what stays.
  const [focusOn, setFocusOn] = useState<{ target: 'progress' | 'send' } | null>(null);
  useEffect(() => {
    if (focusOn) (focusOn.target === 'progress' ? progressHeading : sendHeading).current?.focus();
  }, [focusOn]);
  const editable = isEditable(issue.status);

  return (
    <>
      <Details issue={issue} />
      {issue.progress || isGoingOut(issue.status) ? (
        <ProgressSection
          issue={issue}
          onChange={onChange}
          headingRef={progressHeading}
          onDone={() => setFocusOn({ target: 'progress' })}
        />
      ) : null}
      <Section id="issue-write" heading={copy.writeHeading} className="card mt-8">
        {editable ? null : <p className="mt-1 text-ink-700">{copy.readOnly[issue.status]}</p>}
        <IssueForm form={form} issue={issue} unsavedId={unsavedId} />
      </Section>
      <SiteSection issue={issue} onChange={onChange} />
      <IssuePreviewSection issue={issue} />
      <SendSection
        issue={issue}
        onChange={onChange}
        dirty={form.dirty}
        unsavedId={unsavedId}
        headingRef={sendHeading}
        onDone={(target) => setFocusOn({ target })}
      />
    </>
  );
}

/** `/owner/newsletter/:id` */
export function IssuePage({ id }: { id: string }) {
  const [resource, reload] = useResource<IssueDetail>(apiPath(issueRoutes.detail, id));
  // The issue as the page's own requests last gave it, once it has changed since it loaded.
  const [current, setCurrent] = useState<IssueDetail | null>(null);
  const issue = current ?? (resource.state === 'ready' ? resource.data : null);
  const title = issue?.subject || copy.issueFallback;
  return (
    <>
      <BackLink to={page('newsletter')}>{copy.back}</BackLink>
      <PageHeading title={title}>{title}</PageHeading>
      {issue ? (
        <IssueEditor issue={issue} onChange={setCurrent} />
      ) : (
        <Loaded resource={resource} reload={reload}>
          {() => null}
        </Loaded>
      )}
    </>
  );
}

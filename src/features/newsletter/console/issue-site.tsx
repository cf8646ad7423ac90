/**
 * A sent issue on the site's newsletter archive (`/newsletter/<slug>`, issue #26): "Put on the
 * site" and "Take off the site", each after a dialog that says what it does. The answer is the
 * issue as it now stands, with its page's address while it is there.
 */
import { newsletterIssuesCopy as copy } from '~/content/newsletter-console';
import { ConfirmButton } from '~/components/console/dialog';
import { useAction } from '~/components/console/notices';
import { Section } from '~/components/console/page';
import { issueRoutes, type IssueDetail } from '../issues-console-contract';
import { postTo } from './issue-api';

export function SiteSection({ issue, onChange }: { issue: IssueDetail; onChange: (issue: IssueDetail) => void }) {
  const { busy, run } = useAction();
  if (issue.status !== 'sent') return null;
  const act = (key: 'put' | 'take', done: string) =>
    void run(
      key,
      () => postTo(key === 'put' ? issueRoutes.putOnSite : issueRoutes.takeOffSite, issue.id),
      () => done,
    ).then((answer) => {
      if (answer) onChange(answer);
    });
  return (
    <Section id="issue-site" heading={copy.siteHeading} className="card mt-8">
      {issue.sitePath ? (
        <>
          <p className="mt-2 text-ink-700">
            {copy.siteOn}{' '}
            <a href={issue.sitePath} className="text-link break-all">
              {issue.sitePath}
            </a>
          </p>
          <p className="mt-4">
            <ConfirmButton
              label={busy === 'take' ? copy.takingOffSite : copy.takeOffSite}
              title={copy.takeOffSiteTitle}
              text={copy.takeOffSiteText}
              confirmLabel={copy.takeOffSite}
              cancelLabel={copy.keepOnSite}
              disabled={busy !== null}
              onConfirm={() => act('take', copy.takeOffSiteDone)}
            />
          </p>
        </>
      ) : (
        <>
          <p className="mt-2 max-w-prose text-ink-700">{copy.siteIntro}</p>
          <p className="mt-4">
            <ConfirmButton
              label={busy === 'put' ? copy.puttingOnSite : copy.putOnSite}
              title={copy.putOnSiteTitle}
              text={copy.putOnSiteText}
              confirmLabel={copy.putOnSite}
              cancelLabel={copy.notNow}
              className="btn btn-primary"
              disabled={busy !== null}
              onConfirm={() => act('put', copy.putOnSiteDone)}
            />
          </p>
        </>
      )}
    </Section>
  );
}

/**
 * Subscribers: the newsletter's readers by status (confirmed, waiting for confirmation,
 * unsubscribed), the confirmed list as CSV for a mailing tool, a way to the guide leads (the
 * guide form's submissions in the inbox), and the suppression list, which holds hashes only.
 */
import { Link } from 'react-router';
import { consoleCopy, subscribersCopy as copy } from '~/content/console';
import { OWNER_API } from '~/contract/console';
import type { SubscriberPage, SubscriberStatus } from '../newsletter-console-contract';
import { withQuery } from '~/components/console/http';
import { page, useQuery } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { PageHeading } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { QueryTabs, useQueryChoice } from '~/components/console/tabs';
import { DataTable, DateCell, td } from '~/components/console/table';
import { DownloadLink } from '~/components/console/download';

/** The tabs, in the order the owner reads them: the list that matters first. */
const STATUSES = ['confirmed', 'pending', 'unsubscribed'] as const satisfies readonly SubscriberStatus[];

export function SubscribersPage() {
  const [params] = useQuery();
  const status = useQueryChoice('status', STATUSES, 'confirmed');
  const [list, reload] = useResource<SubscriberPage>(
    withQuery('/subscribers', { status, after: params.get('after') }),
  );
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <DownloadLink href={`${OWNER_API}/exports/subscribers.csv`} className="btn btn-primary">
          {copy.download}
        </DownloadLink>
        <Link to={{ pathname: page('inbox'), search: '?form=bitcoin_guide' }} className="btn btn-secondary">
          {copy.guideLeads}
        </Link>
        <Link to={page('suppressions')} className="btn btn-secondary">
          {copy.suppressionLink}
        </Link>
      </div>
      <QueryTabs
        label={copy.tabsLabel}
        name="status"
        values={STATUSES}
        words={copy.statuses}
        current={status}
        className="mt-6"
      />
      <LoadedList resource={list} reload={reload} empty={copy.empty} count={copy.count} pager={copy}>
        {(data) => (
          <DataTable
            label={copy.tableLabel}
            caption={`${copy.tableLabel}: ${copy.statuses[status]}`}
            minWidth="min-w-[36rem]"
            columns={[
              copy.name,
              copy.email,
              copy.since,
              status === 'unsubscribed' ? copy.unsubscribed : copy.confirmed,
            ]}
          >
            {data.items.map((item) => (
              <tr key={item.id}>
                <td className={`${td} wrap-anywhere`}>{`${item.firstName} ${item.lastName}`}</td>
                <td className={`${td} break-all`}>
                  <Link
                    to={{
                      pathname: page('people'),
                      search: `?email=${encodeURIComponent(item.email)}`,
                    }}
                    className="text-link"
                  >
                    {item.email}
                  </Link>
                </td>
                <DateCell iso={item.createdAt} />
                <td className={`${td} whitespace-nowrap`}>
                  {status === 'unsubscribed' ? (
                    <DateTime iso={item.unsubscribedAt} />
                  ) : item.confirmedAt ? (
                    <DateTime iso={item.confirmedAt} />
                  ) : (
                    consoleCopy.none
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
    </>
  );
}

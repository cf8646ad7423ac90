/**
 * Subscribers: the newsletter's readers by status (confirmed, waiting for confirmation,
 * unsubscribed), the confirmed list as CSV for a mailing tool, a way to the guide leads (the
 * guide form's submissions in the inbox), and the suppression list, which holds hashes only.
 */
import { Link } from 'react-router';
import { consoleCopy, subscribersCopy as copy, suppressionCopy } from '~/content/console';
import { OWNER_API, type SubscriberPage, type SuppressionPage } from './api';
import { withQuery } from './http';
import { ListStatus, Pager } from './inbox';
import { page, useQuery } from './paths';
import { DateTime, Loaded, PageHeading, TableBox, td, th, useResource } from './ui';

const STATUSES = ['confirmed', 'pending', 'unsubscribed'] as const;

export function SubscribersPage() {
  const [params] = useQuery();
  const status = STATUSES.find((s) => s === params.get('status')) ?? 'confirmed';
  const [list, reload] = useResource<SubscriberPage>(
    withQuery('/subscribers', { status, after: params.get('after') }),
  );
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <a href={`${OWNER_API}/exports/subscribers.csv`} download className="btn btn-primary">
          {copy.download}
        </a>
        <Link to={{ pathname: page('inbox'), search: '?form=bitcoin_guide' }} className="btn btn-secondary">
          {copy.guideLeads}
        </Link>
        <Link to={page('suppressions')} className="btn btn-secondary">
          {copy.suppressionLink}
        </Link>
      </div>
      <nav aria-label={copy.tabsLabel} className="mt-6">
        <ul className="flex flex-wrap gap-2">
          {STATUSES.map((s) => (
            <li key={s}>
              <Link
                to={{ search: `?status=${s}` }}
                aria-current={s === status ? 'page' : undefined}
                className={
                  'block rounded-md px-3 py-2 text-sm font-medium ' +
                  (s === status
                    ? 'bg-ink-900 text-white'
                    : 'bg-white text-ink-700 ring-1 ring-ink-200 hover:bg-ink-100')
                }
              >
                {copy.statuses[s]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ListStatus resource={list} count={(n, more) => (n === 0 ? copy.empty : copy.count(n, more))} />
      <Loaded resource={list} reload={reload}>
        {(data) =>
          data.items.length === 0 ? null : (
            <>
              <TableBox label={copy.tableLabel}>
                <table className="w-full min-w-[36rem] border-collapse">
                  <caption className="sr-only">{`${copy.tableLabel}: ${copy.statuses[status]}`}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className={th}>
                        {copy.name}
                      </th>
                      <th scope="col" className={th}>
                        {copy.email}
                      </th>
                      <th scope="col" className={th}>
                        {copy.since}
                      </th>
                      <th scope="col" className={th}>
                        {status === 'unsubscribed' ? copy.unsubscribed : copy.confirmed}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((item) => (
                      <tr key={item.id}>
                        <td className={td}>{`${item.firstName} ${item.lastName}`}</td>
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
                        <td className={`${td} whitespace-nowrap`}>
                          <DateTime iso={item.createdAt} />
                        </td>
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
                  </tbody>
                </table>
              </TableBox>
              <Pager next={data.next} params={params} labels={copy} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

export function SuppressionsPage() {
  const [params] = useQuery();
  const [list, reload] = useResource<SuppressionPage>(
    withQuery('/suppressions', { after: params.get('after') }),
  );
  const copyS = suppressionCopy;
  return (
    <>
      <PageHeading title={copyS.title}>{copyS.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copyS.intro}</p>
      <ListStatus resource={list} count={(n) => (n === 0 ? copyS.empty : '')} />
      <Loaded resource={list} reload={reload}>
        {(data) =>
          data.items.length === 0 ? null : (
            <>
              <TableBox label={copyS.tableLabel}>
                <table className="w-full min-w-[32rem] border-collapse">
                  <caption className="sr-only">{copyS.tableLabel}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className={th}>
                        {copyS.hash}
                      </th>
                      <th scope="col" className={th}>
                        {copyS.reason}
                      </th>
                      <th scope="col" className={th}>
                        {copyS.since}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((item) => (
                      <tr key={item.hash}>
                        <td className={`${td} font-mono text-xs break-all`}>{item.hash}</td>
                        <td className={td}>{copyS.reasons[item.reason] ?? item.reason}</td>
                        <td className={`${td} whitespace-nowrap`}>
                          <DateTime iso={item.createdAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableBox>
              <Pager next={data.next} params={params} labels={copyS} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

/**
 * Deliveries: the outbox as the owner needs it. E-mails waiting to go, those that failed (with
 * the last error code) and those sent lately; "Retry" sends a failed one, or one waiting to retry after an error, again now.
 */
import { Link } from 'react-router';
import { consoleCopy, deliveriesCopy as copy } from '~/content/console';
import type { DeliveryList, DeliverySummary } from './api';
import { post, withQuery } from './http';
import { page, useQuery } from './paths';
import { Badge, DateTime, Loaded, PageHeading, TableBox, td, th, useAction, useResource } from './ui';

const tones: Partial<Record<string, 'warn' | 'bad' | 'good' | 'neutral'>> = {
  pending: 'warn',
  failed: 'bad',
  sent: 'good',
  skipped: 'neutral',
  suppressed: 'neutral',
};

export function DeliveriesTable({
  items,
  onRetried,
  showSubmission = false,
}: {
  items: DeliverySummary[];
  onRetried: () => void;
  showSubmission?: boolean;
}) {
  const { busy, run } = useAction();
  return (
    <TableBox label={copy.tableLabel}>
      <table className="w-full min-w-[48rem] border-collapse">
        <caption className="sr-only">{copy.tableLabel}</caption>
        <thead>
          <tr>
            <th scope="col" className={th}>
              {copy.subject}
            </th>
            <th scope="col" className={th}>
              {copy.to}
            </th>
            <th scope="col" className={th}>
              {copy.status}
            </th>
            <th scope="col" className={th}>
              {copy.created}
            </th>
            <th scope="col" className={th}>
              {copy.sentAt}
            </th>
            <th scope="col" className={`${th} text-right`}>
              {copy.attempts}
            </th>
            <th scope="col" className={th}>
              {copy.lastError}
            </th>
            <th scope="col" className={th}>
              {copy.actions}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <th scope="row" id={`delivery-${item.id}`} className={`${td} text-left font-medium`}>
                {item.subject}
                {showSubmission && item.submissionId ? (
                  <Link to={page(`inbox/${item.submissionId}`)} className="text-link mt-1 block text-xs">
                    {copy.submission}
                  </Link>
                ) : null}
              </th>
              <td className={`${td} break-all`}>{item.to}</td>
              <td className={td}>
                <Badge tone={tones[item.status] ?? 'neutral'}>
                  {copy.statuses[item.status] ?? item.status}
                </Badge>
              </td>
              <td className={`${td} whitespace-nowrap`}>
                <DateTime iso={item.createdAt} />
              </td>
              <td className={`${td} whitespace-nowrap`}>
                <DateTime iso={item.sentAt} />
              </td>
              <td className={`${td} text-right tabular-nums`}>{item.attempts}</td>
              <td className={`${td} font-mono text-xs break-all`}>{item.lastError ?? consoleCopy.none}</td>
              <td className={td}>
                {item.status === 'failed' || (item.status === 'pending' && item.lastError) ? (
                  <button
                    type="button"
                    className="btn btn-secondary min-h-10 px-3 py-1.5"
                    aria-describedby={`delivery-${item.id}`}
                    disabled={busy !== null}
                    onClick={() =>
                      void run(
                        `retry-${item.id}`,
                        () => post(`/deliveries/${item.id}/retry`),
                        () => copy.retried,
                      ).then((done) => done && onRetried())
                    }
                  >
                    {copy.retry}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  );
}

export function DeliveriesPage() {
  const [params] = useQuery();
  const status = params.get('status') ?? '';
  const [list, reload] = useResource<DeliveryList>(withQuery('/deliveries', { status }));
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <nav aria-label={copy.filtersLabel} className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {Object.entries(copy.filters).map(([value, label]) => (
            <li key={value}>
              <Link
                to={value ? { search: `?status=${value}` } : { search: '' }}
                aria-current={status === value ? 'page' : undefined}
                className={
                  'block rounded-full border px-3 py-1.5 text-sm font-medium ' +
                  (status === value
                    ? 'border-ink-900 bg-ink-900 text-white'
                    : 'border-ink-300 bg-white text-ink-800 hover:bg-ink-100')
                }
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p role="status" className="mt-4 text-sm text-ink-700">
        {list.state === 'ready' && list.data.items.length === 0 ? copy.empty : ''}
      </p>
      <Loaded resource={list} reload={reload}>
        {(data) =>
          data.items.length === 0 ? null : (
            <DeliveriesTable items={data.items} onRetried={reload} showSubmission />
          )
        }
      </Loaded>
    </>
  );
}

/**
 * Deliveries: the outbox as the owner needs it. E-mails waiting to go, those that failed (their
 * last error in words, its code in brackets) and those sent lately; "Retry" sends a failed one, or
 * one waiting to retry after an error, again now. A submission's page shows its e-mails with the
 * same table.
 */
import { Link } from 'react-router';
import { consoleCopy, deliveriesCopy as copy } from '~/content/console';
import { deliveryErrorWords } from '~/content/delivery-errors';
import { deliveryRoutes, type DeliveryList, type DeliverySummary } from '~/contract/console';
import { post, withQuery } from '~/components/console/http';
import { page, useQuery } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { useAction } from '~/components/console/notices';
import { useMayUse } from '~/components/console/role';
import { Badge, PageHeading } from '~/components/console/page';
import { DateTime } from '~/components/console/dates';
import { LoadedList } from '~/components/console/pager';
import { QueryTabs } from '~/components/console/tabs';
import { DataTable, DateCell, numeric, td } from '~/components/console/table';

const tones: Partial<Record<string, 'warn' | 'bad' | 'good' | 'neutral'>> = {
  pending: 'warn',
  failed: 'bad',
  sent: 'good',
  skipped: 'neutral',
  suppressed: 'neutral',
};

const columns = [
  copy.subject,
  copy.to,
  copy.status,
  copy.created,
  copy.sentAt,
  numeric(copy.attempts),
  copy.lastError,
  copy.actions,
];

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
  // A helper sees a submission's e-mails but may not send one again (decision 032).
  const mayRetry = useMayUse(deliveryRoutes.retry);
  return (
    <DataTable label={copy.tableLabel} minWidth="min-w-[48rem]" columns={columns}>
      {items.map((item) => (
        <tr key={item.id}>
          <th scope="row" id={`delivery-${item.id}`} className={`${td} text-left font-medium wrap-anywhere`}>
            {item.subject}
            {showSubmission && item.submissionId ? (
              <Link to={page(`inbox/${item.submissionId}`)} className="text-link mt-1 block text-xs">
                {copy.submission}
              </Link>
            ) : null}
          </th>
          <td className={`${td} break-all`}>{item.to}</td>
          <td className={td}>
            <Badge tone={tones[item.status] ?? 'neutral'}>{copy.statuses[item.status] ?? item.status}</Badge>
            {item.dueAt ? (
              <span className="mt-1 block text-xs text-ink-700">
                {copy.due} <DateTime iso={item.dueAt} />
              </span>
            ) : null}
          </td>
          <DateCell iso={item.createdAt} />
          <DateCell iso={item.sentAt} />
          <td className={`${td} text-right tabular-nums`}>{item.attempts}</td>
          <td className={`${td} text-sm wrap-anywhere`}>
            {item.lastError
              ? deliveryErrorWords(item.lastError, item.status === 'pending')
              : consoleCopy.none}
          </td>
          <td className={td}>
            {mayRetry && (item.status === 'failed' || (item.status === 'pending' && item.lastError)) ? (
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
    </DataTable>
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
      <QueryTabs
        label={copy.filtersLabel}
        name="status"
        values={Object.keys(copy.filters)}
        words={copy.filters}
        current={status}
      />
      <LoadedList resource={list} reload={reload} empty={copy.empty}>
        {(data) => <DeliveriesTable items={data.items} onRetried={reload} showSubmission />}
      </LoadedList>
    </>
  );
}

/**
 * The suppression list: the keyed hashes of the addresses nothing is e-mailed to (erased,
 * unsubscribed), with their reason and date; never an address.
 */
import { suppressionCopy as copy } from '~/content/console';
import type { SuppressionPage } from '~/contract/console';
import { withQuery } from '~/components/console/http';
import { useQuery } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { PageHeading } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { DataTable, DateCell, td } from '~/components/console/table';

const suppressionColumns = [copy.hash, copy.reason, copy.since];

export function SuppressionsPage() {
  const [params] = useQuery();
  const [list, reload] = useResource<SuppressionPage>(
    withQuery('/suppressions', { after: params.get('after') }),
  );
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <LoadedList resource={list} reload={reload} empty={copy.empty} pager={copy}>
        {(data) => (
          <DataTable label={copy.tableLabel} minWidth="min-w-[32rem]" columns={suppressionColumns}>
            {data.items.map((item) => (
              <tr key={item.hash}>
                <td className={`${td} font-mono text-xs break-all`}>{item.hash}</td>
                <td className={td}>{copy.reasons[item.reason] ?? item.reason}</td>
                <DateCell iso={item.createdAt} />
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
    </>
  );
}

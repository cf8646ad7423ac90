/** The audit log: every sign-in and owner action, with its time and who, newest first. */
import { auditCopy as copy } from '~/content/console';
import type { AuditPage as AuditAnswer } from '~/contract/console';
import { withQuery } from '~/components/console/http';
import { useQuery } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { PageHeading } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { DataTable, DateCell, td } from '~/components/console/table';

const columns = [copy.at, copy.actor, copy.action, copy.target];

export function AuditPage() {
  const [params] = useQuery();
  const [log, reload] = useResource<AuditAnswer>(withQuery('/audit', { after: params.get('after') }));
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <LoadedList resource={log} reload={reload} empty={copy.empty} pager={copy}>
        {(data) => (
          <DataTable label={copy.tableLabel} minWidth="min-w-[36rem]" columns={columns}>
            {data.items.map((entry) => (
              <tr key={entry.id}>
                <DateCell iso={entry.at} />
                <td className={`${td} break-all`}>{entry.actor}</td>
                <td className={`${td} font-mono text-xs`}>{entry.action}</td>
                <td className={`${td} font-mono text-xs break-all`}>{entry.target ?? ''}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
    </>
  );
}

/** The audit log: every sign-in and owner action, with its time and who, newest first. */
import { auditCopy as copy } from '~/content/console';
import type { AuditPage as AuditAnswer } from '~/contract/console';
import { withQuery } from './http';
import { useQuery } from './paths';
import { useResource } from './ui/data';
import { PageHeading } from './ui/page';
import { LoadedList } from './ui/pager';
import { DataTable, DateCell, td } from './ui/table';

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

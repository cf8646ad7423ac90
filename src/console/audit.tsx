/** The audit log: every sign-in and owner action, with its time and who, newest first. */
import { auditCopy as copy } from '~/content/console';
import type { AuditPage as AuditAnswer } from './api';
import { withQuery } from './http';
import { ListStatus, Pager } from './inbox';
import { useQuery } from './paths';
import { DateTime, Loaded, PageHeading, TableBox, td, th, useResource } from './ui';

export function AuditPage() {
  const [params] = useQuery();
  const [log, reload] = useResource<AuditAnswer>(withQuery('/audit', { after: params.get('after') }));
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <ListStatus resource={log} count={(n) => (n === 0 ? copy.empty : '')} />
      <Loaded resource={log} reload={reload}>
        {(data) =>
          data.items.length === 0 ? null : (
            <>
              <TableBox label={copy.tableLabel}>
                <table className="w-full min-w-[36rem] border-collapse">
                  <caption className="sr-only">{copy.tableLabel}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className={th}>
                        {copy.at}
                      </th>
                      <th scope="col" className={th}>
                        {copy.actor}
                      </th>
                      <th scope="col" className={th}>
                        {copy.action}
                      </th>
                      <th scope="col" className={th}>
                        {copy.target}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((entry) => (
                      <tr key={entry.id}>
                        <td className={`${td} whitespace-nowrap`}>
                          <DateTime iso={entry.at} />
                        </td>
                        <td className={`${td} break-all`}>{entry.actor}</td>
                        <td className={`${td} font-mono text-xs`}>{entry.action}</td>
                        <td className={`${td} font-mono text-xs break-all`}>{entry.target ?? ''}</td>
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

/**
 * Spam: what the honeypot and the fill time held back, with the reason. "Not spam" delivers a
 * submission exactly once (its e-mails are queued then); "Delete" removes it, after asking.
 */
import { useLocation } from 'react-router';
import { consoleCopy, inboxCopy, spamCopy as copy } from '~/content/console';
import { formTypeLabels, type SubmissionPage } from '~/contract/console';
import { withQuery } from '~/components/console/http';
import { Sender } from './inbox';
import { page, useQuery } from '~/components/console/paths';
import { HeldActions, spamReasonLabel } from './submission';
import { useResource } from '~/components/console/data';
import { useAction } from '~/components/console/notices';
import { PageHeading } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { DataTable, DateCell, td } from '~/components/console/table';

const columns = [copy.from, copy.received, copy.reason, copy.excerpt, copy.actions];

export function SpamPage() {
  const [params] = useQuery();
  const location = useLocation();
  const [list, reload] = useResource<SubmissionPage>(
    withQuery('/submissions', { status: 'spam', after: params.get('after') }),
  );
  const action = useAction();

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <LoadedList
        resource={list}
        reload={reload}
        empty={copy.empty}
        count={inboxCopy.count}
        pager={inboxCopy}
      >
        {(data) => (
          <DataTable label={copy.tableLabel} minWidth="min-w-[44rem]" columns={columns}>
            {data.items.map((item) => {
              const nameId = `spam-${item.id}`;
              return (
                <tr key={item.id}>
                  <td className={td} id={nameId}>
                    <Sender
                      item={item}
                      to={page(`inbox/${item.id}`)}
                      back={`${location.pathname}${location.search}`}
                    />
                    <span className="block text-ink-600">
                      {formTypeLabels[item.formType] ?? item.formType}
                    </span>
                  </td>
                  <DateCell iso={item.receivedAt} />
                  <td className={td}>{spamReasonLabel(item.spamReason) || copy.unknownReason}</td>
                  <td className={`${td} max-w-xs wrap-anywhere text-ink-700`}>
                    {item.excerpt ?? consoleCopy.none}
                  </td>
                  <td className={td}>
                    <div className="flex flex-wrap gap-2">
                      <HeldActions id={item.id} action={action} reload={reload} describedBy={nameId} small />
                    </div>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </LoadedList>
    </>
  );
}

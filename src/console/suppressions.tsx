/**
 * The suppression list: the keyed hashes of the addresses nothing is e-mailed to (erased,
 * unsubscribed), with their reason and date; never an address. A hash of one of the console's own
 * addresses is flagged. "Lift" takes a hash off the list after saying what that means (the
 * address may be e-mailed again by the forms); the server records it in the audit log.
 */
import { suppressionCopy as copy } from '~/content/console';
import type { SuppressionLifted, SuppressionPage } from '~/contract/console';
import { post, withQuery } from '~/components/console/http';
import { useQuery } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { ConfirmButton } from '~/components/console/dialog';
import { useAction } from '~/components/console/notices';
import { Badge, PageHeading } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { DataTable, DateCell, td } from '~/components/console/table';

const suppressionColumns = [copy.hash, copy.reason, copy.since, copy.actions];

export function SuppressionsPage() {
  const [params] = useQuery();
  const [list, reload] = useResource<SuppressionPage>(
    withQuery('/suppressions', { after: params.get('after') }),
  );
  const { busy, run } = useAction();
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <LoadedList resource={list} reload={reload} empty={copy.empty} pager={copy}>
        {(data) => (
          <DataTable label={copy.tableLabel} minWidth="min-w-[36rem]" columns={suppressionColumns}>
            {data.items.map((item) => (
              <tr key={item.hash}>
                <td className={`${td} font-mono text-xs break-all`} id={`suppression-${item.hash}`}>
                  {item.hash}
                </td>
                <td className={td}>
                  {copy.reasons[item.reason] ?? item.reason}
                  {item.console ? (
                    <span className="ml-2">
                      <Badge tone="warn">{copy.consoleAddress}</Badge>
                    </span>
                  ) : null}
                </td>
                <DateCell iso={item.createdAt} />
                <td className={td}>
                  <ConfirmButton
                    label={copy.lift}
                    title={copy.liftTitle}
                    text={copy.liftText}
                    confirmLabel={copy.liftConfirm}
                    describedBy={`suppression-${item.hash}`}
                    disabled={busy !== null}
                    onConfirm={() =>
                      void run(
                        `lift:${item.hash}`,
                        () => post<SuppressionLifted>('/suppressions/lift', { hash: item.hash }),
                        () => copy.lifted,
                      ).then((done) => done && reload())
                    }
                  />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
    </>
  );
}

/**
 * Spam: what the honeypot and the fill time held back, with the reason. "Not spam" delivers a
 * submission exactly once (its e-mails are queued then); "Delete" removes it, after asking.
 */
import { useLocation } from 'react-router';
import { consoleCopy, inboxCopy, spamCopy as copy, submissionCopy } from '~/content/console';
import { formTypeLabels, type ReleaseAnswer, type SubmissionPage } from './api';
import { post, withQuery } from './http';
import { ListStatus, Pager, Sender } from './inbox';
import { page, useQuery } from './paths';
import { spamReasonLabel } from './submission';
import { ConfirmButton, DateTime, Loaded, PageHeading, TableBox, td, th, useAction, useResource } from './ui';

export function SpamPage() {
  const [params] = useQuery();
  const location = useLocation();
  const [list, reload] = useResource<SubmissionPage>(
    withQuery('/submissions', { status: 'spam', after: params.get('after') }),
  );
  const { busy, run } = useAction();

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <ListStatus resource={list} count={(n, more) => (n === 0 ? copy.empty : inboxCopy.count(n, more))} />
      <Loaded resource={list} reload={reload}>
        {(data) =>
          data.items.length === 0 ? null : (
            <>
              <TableBox label={copy.tableLabel}>
                <table className="w-full min-w-[44rem] border-collapse">
                  <caption className="sr-only">{copy.tableLabel}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className={th}>
                        {copy.from}
                      </th>
                      <th scope="col" className={th}>
                        {copy.received}
                      </th>
                      <th scope="col" className={th}>
                        {copy.reason}
                      </th>
                      <th scope="col" className={th}>
                        {copy.excerpt}
                      </th>
                      <th scope="col" className={th}>
                        {copy.actions}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((item) => {
                      const base = `/submissions/${encodeURIComponent(item.id)}`;
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
                          <td className={`${td} whitespace-nowrap`}>
                            <DateTime iso={item.receivedAt} />
                          </td>
                          <td className={td}>{spamReasonLabel(item.spamReason) || copy.unknownReason}</td>
                          <td className={`${td} max-w-xs break-words text-ink-700`}>
                            {item.excerpt ?? consoleCopy.none}
                          </td>
                          <td className={td}>
                            <div className="flex flex-wrap gap-2">
                              <button
                                type="button"
                                className="btn btn-primary min-h-10 px-3 py-1.5"
                                aria-describedby={nameId}
                                disabled={busy !== null}
                                onClick={() =>
                                  void run(
                                    `release-${item.id}`,
                                    () => post<ReleaseAnswer>(`${base}/release`),
                                    (answer) => submissionCopy.releasedMessage(answer.emails),
                                  ).then((done) => done && reload())
                                }
                              >
                                {submissionCopy.notSpam}
                              </button>
                              <ConfirmButton
                                label={submissionCopy.delete}
                                title={submissionCopy.confirmDeleteTitle}
                                text={submissionCopy.confirmDeleteText}
                                describedBy={nameId}
                                disabled={busy !== null}
                                className="btn btn-secondary min-h-10 px-3 py-1.5"
                                onConfirm={() =>
                                  void run(
                                    `delete-${item.id}`,
                                    () => post(`${base}/delete`),
                                    () => submissionCopy.deleted,
                                  ).then((done) => done && reload())
                                }
                              />
                            </div>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableBox>
              <Pager next={data.next} params={params} labels={inboxCopy} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

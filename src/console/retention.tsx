/** Retention: the periods the privacy notice states, the daily job's last runs and what they removed, and "Run now". */
import { retentionCopy as copy } from '~/content/console';
import type { RetentionView } from './api';
import { post } from './http';
import { DateTime, Loaded, PageHeading, TableBox, td, th, useAction, useResource } from './ui';

function removed(counts: Record<string, number> | null): string {
  if (!counts) return copy.running;
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${n} ${copy.countLabels[key] ?? key}`);
  return parts.length ? parts.join(', ') : '0';
}

export function RetentionPage() {
  const [view, reload] = useResource<RetentionView>('/retention');
  const { busy, run } = useAction();
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <Loaded resource={view} reload={reload}>
        {(data) => (
          <>
            <h2 className="mt-6 text-lg font-bold text-ink-900">{copy.periods}</h2>
            <ul className="mt-2 list-disc pl-6 text-ink-800">
              <li>{copy.contact(data.periods.contactMonths)}</li>
              <li>{copy.bookings(data.periods.bookingMonthsAfterSession)}</li>
              <li>{copy.masterclass(data.periods.masterclassMonthsAfterEvent)}</li>
              <li>{copy.spam(data.periods.spamDays)}</li>
              <li>{copy.emails(data.periods.emailBodyDays)}</li>
              <li>{copy.unsubscribed}</li>
            </ul>
            <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
              <h2 className="text-lg font-bold text-ink-900">{copy.runs}</h2>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={busy !== null}
                onClick={() =>
                  void run(
                    'retention',
                    () => post('/retention/run'),
                    () => copy.ran,
                  ).then((done) => done && reload())
                }
              >
                {copy.runNow}
              </button>
            </div>
            {data.runs.length === 0 ? (
              <p className="mt-2 text-ink-700">{copy.none}</p>
            ) : (
              <TableBox label={copy.tableLabel}>
                <table className="w-full min-w-[32rem] border-collapse">
                  <caption className="sr-only">{copy.tableLabel}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className={th}>
                        {copy.started}
                      </th>
                      <th scope="col" className={th}>
                        {copy.finished}
                      </th>
                      <th scope="col" className={th}>
                        {copy.removed}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.runs.map((r) => (
                      <tr key={r.id}>
                        <td className={`${td} whitespace-nowrap`}>
                          <DateTime iso={r.startedAt} />
                        </td>
                        <td className={`${td} whitespace-nowrap`}>
                          <DateTime iso={r.finishedAt} />
                        </td>
                        <td className={td}>{removed(r.counts)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableBox>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}

/**
 * Retention: the periods the privacy notice states, the daily job's last runs and what they
 * removed, and "Run now". A run over a large database takes minutes: the server answers at once
 * and the page follows the run, reloading every few seconds while one is under way, and says when
 * the run it started has ended.
 */
import { useEffect, useRef } from 'react';
import { retentionCopy as copy } from '~/content/console';
import type { RetentionStarted, RetentionView } from '~/contract/people';
import { post } from '~/components/console/http';
import { Loaded, useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { useAction, useNotify } from '~/components/console/notices';
import { PageHeading } from '~/components/console/page';
import { DataTable, td } from '~/components/console/table';

/** How often the page asks again while a run is under way. */
const FOLLOW_MS = 2000;

function removed(view: RetentionView, run: RetentionView['runs'][number]): string {
  if (!run.counts) return run.id === view.running ? copy.running : copy.unfinished;
  const parts = Object.entries(run.counts)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${n} ${view.countLabels[key] ?? key}`);
  const list = parts.length ? parts.join(', ') : '0';
  return run.interrupted ? copy.interrupted(list) : list;
}

export function RetentionPage() {
  const [view, reload] = useResource<RetentionView>('/retention');
  const { busy, run } = useAction();
  const notify = useNotify();
  /** The run this page started, until it is seen to end. */
  const following = useRef<number | null>(null);
  const data = view.state === 'ready' ? view.data : null;

  useEffect(() => {
    if (!data) return;
    if (data.running !== null) {
      const timer = setTimeout(reload, FOLLOW_MS);
      return () => clearTimeout(timer);
    }
    const ended = following.current === null ? undefined : data.runs.find((r) => r.id === following.current);
    // Not listed yet: the reload that lists it is on its way.
    if (ended) {
      following.current = null;
      notify(
        ended.interrupted || !ended.finishedAt
          ? { tone: 'error', text: copy.endedEarly }
          : { tone: 'success', text: copy.ran },
      );
    }
  }, [data, reload, notify]);

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <Loaded resource={view} reload={reload}>
        {(data) => (
          <>
            <h2 className="mt-6 text-lg font-bold text-ink-900">{copy.periods}</h2>
            <ul className="mt-2 list-disc pl-6 text-ink-800">
              {data.periods.map((sentence) => (
                <li key={sentence}>{sentence}</li>
              ))}
            </ul>
            <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
              <h2 className="text-lg font-bold text-ink-900">{copy.runs}</h2>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={busy !== null || data.running !== null}
                onClick={() =>
                  void run(
                    'retention',
                    () => post<RetentionStarted>('/retention/run'),
                    () => copy.runStarted,
                  ).then((started) => {
                    if (!started) return;
                    following.current = started.runId;
                    reload();
                  })
                }
              >
                {data.running !== null ? copy.running : copy.runNow}
              </button>
            </div>
            {data.runs.length === 0 ? (
              <p className="mt-2 text-ink-700">{copy.none}</p>
            ) : (
              <DataTable
                label={copy.tableLabel}
                minWidth="min-w-[32rem]"
                columns={[copy.started, copy.finished, copy.removed]}
              >
                {data.runs.map((r) => (
                  <tr key={r.id}>
                    <td className={`${td} whitespace-nowrap`}>
                      <DateTime iso={r.startedAt} />
                    </td>
                    <td className={`${td} whitespace-nowrap`}>
                      <DateTime iso={r.finishedAt} />
                    </td>
                    <td className={td}>{removed(data, r)}</td>
                  </tr>
                ))}
              </DataTable>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}

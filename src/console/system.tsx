/**
 * System (decision 057): what needs the owner's eye, the backups (their schedule, the last one,
 * how many are kept and where, the last failure, the copy off the machine) with "Back up now",
 * the weekly restore drill, the database and its disk, the e-mails waiting in the outbox, and the
 * release running. A backup runs on the server: the page follows it, reloading every few seconds
 * while one is under way, and says how the one it started ended.
 */
import { useEffect, useRef, useState } from 'react';
import { systemCopy as copy } from '~/content/console';
import type { BackupStarted, SystemView } from '~/contract/system';
import { post } from '~/components/console/http';
import { Loaded, useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { useAction, useNotify } from '~/components/console/notices';
import { Badge, Banner, DetailRow, PageHeading, Section } from '~/components/console/page';

/** How often the page asks again while a backup is under way. */
const FOLLOW_MS = 2000;
/** How often the ages ("5 minutes ago") are worked out again. */
const TICK_MS = 30_000;

const oneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

/** A size in words: "512 bytes", "21.5 KB", "9.7 MB", "77 GB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < copy.units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${(value < 10 && unit > 0 ? oneDecimal : whole).format(value)} ${copy.units[unit]}`;
}

/** How long before `now` the moment `iso` was: "just now", "5 hours ago", "3 days ago". */
export function formatAge(iso: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (!(minutes >= 1)) return copy.justNow;
  if (minutes < 60) return copy.ago(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return copy.ago(hours, 'hour');
  return copy.ago(Math.floor(hours / 24), 'day');
}

/** A moment as its age and its UK date and time: "5 hours ago (7 Dec 2026, 03:00)". */
function When({ iso, now }: { iso: string; now: number }) {
  return (
    <>
      {formatAge(iso, now)} (<DateTime iso={iso} />)
    </>
  );
}

/** The time now, kept up to date every TICK_MS, for the ages the page shows. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** What the page knew of the backups when "Back up now" was pressed, to tell how it ended. */
type Before = { last: string | null; failure: string | null };

export function SystemPage() {
  const [view, reload] = useResource<SystemView>('/system');
  const { busy, run } = useAction();
  const notify = useNotify();
  const now = useNow();
  /** Set while the page follows a backup it asked for, until it is seen to end. */
  const following = useRef<Before | null>(null);
  const data = view.state === 'ready' ? view.data : null;

  useEffect(() => {
    if (!data) return;
    if (data.backups.running) {
      const timer = setTimeout(reload, FOLLOW_MS);
      return () => clearTimeout(timer);
    }
    const before = following.current;
    if (!before) return;
    following.current = null;
    const { last, failure } = data.backups;
    if (last && last.name !== before.last)
      notify({ tone: 'success', text: copy.backedUp(formatBytes(last.bytes)) });
    else if (failure && failure.at !== before.failure)
      notify({ tone: 'error', text: copy.backupFailed(failure.detail) });
    else notify({ tone: 'error', text: copy.notTaken });
  }, [data, reload, notify]);

  function backUp(backups: SystemView['backups']) {
    const before = { last: backups.last?.name ?? null, failure: backups.failure?.at ?? null };
    void run(
      'backup',
      () => post<BackupStarted>('/system/backup'),
      (answer) => (answer.started ? copy.started : copy.alreadyRunning),
    ).then((answer) => {
      if (!answer) return;
      following.current = before;
      reload();
    });
  }

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 max-w-prose text-ink-700">{copy.intro}</p>
      <Loaded resource={view} reload={reload}>
        {(data) => (
          <>
            <Banner heading={copy.warningsHeading} items={data.warnings} />
            <Backups
              backups={data.backups}
              now={now}
              working={busy !== null || data.backups.running}
              onBackUp={() => backUp(data.backups)}
            />
            <div className="mt-6 grid gap-6 lg:grid-cols-2">
              <Drill drill={data.drill} scheduled={data.backups.hour !== null} now={now} />
              <Database database={data.database} />
              <Outbox outbox={data.outbox} now={now} />
              <Release release={data.release} now={now} />
            </div>
          </>
        )}
      </Loaded>
    </>
  );
}

function Backups({
  backups,
  now,
  working,
  onBackUp,
}: {
  backups: SystemView['backups'];
  now: number;
  working: boolean;
  onBackUp: () => void;
}) {
  const { last, failure } = backups;
  return (
    <section aria-labelledby="system-backups" className="card mt-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="system-backups" className="text-xl font-semibold">
          {copy.backupsHeading}
        </h2>
        <button type="button" className="btn btn-secondary" disabled={working} onClick={onBackUp}>
          {working ? copy.backingUp : copy.backUpNow}
        </button>
      </div>
      <dl className="mt-2">
        <DetailRow label={copy.schedule}>
          {backups.hour === null ? copy.scheduleOff : copy.scheduleDaily(backups.hour)}
        </DetailRow>
        <DetailRow label={copy.lastBackup}>
          {last ? <When iso={last.takenAt} now={now} /> : copy.noBackup}
        </DetailRow>
        {last ? (
          <>
            <DetailRow label={copy.size}>{copy.sizeTaken(formatBytes(last.bytes), last.seconds)}</DetailRow>
            <DetailRow label={copy.reason}>{copy.reasons[last.reason] ?? last.reason}</DetailRow>
            <DetailRow label={copy.encrypted}>
              {last.encrypted ? copy.encryptedYes : copy.encryptedNo}
              {backups.encrypted ? null : (
                <span className="block text-sm text-ink-700">{copy.encryptionHint}</span>
              )}
            </DetailRow>
          </>
        ) : null}
        <DetailRow label={copy.kept}>{copy.keptCount(backups.kept, backups.keep)}</DetailRow>
        <DetailRow label={copy.where}>
          <code className="break-all">{backups.dir}</code>
        </DetailRow>
        {failure ? (
          <DetailRow label={copy.failure}>
            <span className="font-medium text-danger-700">
              <When iso={failure.at} now={now} />
            </span>
            <span className="block">{failure.detail}</span>
          </DetailRow>
        ) : null}
        <DetailRow label={copy.copyOff}>
          <CopyOff backups={backups} now={now} />
        </DetailRow>
      </dl>
    </section>
  );
}

/** The copy off the machine: not set up, none yet, or the last one's outcome. */
function CopyOff({ backups, now }: { backups: SystemView['backups']; now: number }) {
  if (!backups.copyConfigured) return <>{copy.copyNotSetUp}</>;
  const last = backups.copy;
  if (!last) return <>{copy.copyNone}</>;
  return (
    <>
      <Badge tone={last.ok ? 'good' : 'bad'}>{last.ok ? copy.copied : copy.copyFailed}</Badge>{' '}
      <When iso={last.at} now={now} />
      {last.detail ? <span className="block">{last.detail}</span> : null}
    </>
  );
}

function Drill({ drill, scheduled, now }: { drill: SystemView['drill']; scheduled: boolean; now: number }) {
  return (
    <Section id="system-drill" heading={copy.drillHeading} look="large" className="card">
      <p className="mt-1 text-ink-700">{copy.drillIntro}</p>
      {drill ? (
        <dl className="mt-2">
          <DetailRow label={copy.lastDrill}>
            <When iso={drill.at} now={now} />
          </DetailRow>
          <DetailRow label={copy.result}>
            <Badge tone={drill.ok ? 'good' : 'bad'}>{drill.ok ? copy.passed : copy.drillFailed}</Badge>
            {drill.detail ? <span className="mt-1 block">{drill.detail}</span> : null}
          </DetailRow>
        </dl>
      ) : (
        <p className="mt-2 text-ink-700">{scheduled ? copy.noDrill : copy.noDrillOff}</p>
      )}
    </Section>
  );
}

function Database({ database }: { database: SystemView['database'] }) {
  const { disk } = database;
  return (
    <Section id="system-database" heading={copy.databaseHeading} look="large" className="card">
      <dl className="mt-2">
        <DetailRow label={copy.kind}>
          {database.driver === 'embedded' ? copy.embedded : copy.external}
        </DetailRow>
        <DetailRow label={copy.version}>{database.version}</DetailRow>
        <DetailRow label={copy.databaseSize}>{formatBytes(database.bytes)}</DetailRow>
        <DetailRow label={copy.disk}>
          {disk && disk.totalBytes > 0
            ? copy.diskFree(
                formatBytes(disk.freeBytes),
                formatBytes(disk.totalBytes),
                Math.round((disk.freeBytes / disk.totalBytes) * 100),
              )
            : copy.diskUnknown}
        </DetailRow>
      </dl>
    </Section>
  );
}

function Outbox({ outbox, now }: { outbox: SystemView['outbox']; now: number }) {
  return (
    <Section id="system-outbox" heading={copy.outboxHeading} look="large" className="card">
      <dl className="mt-2">
        <DetailRow label={copy.waiting}>
          {outbox.waiting === 0 ? copy.noneWaiting : copy.waitingCount(outbox.waiting)}
        </DetailRow>
        {outbox.waiting > 0 && outbox.oldestAt ? (
          <DetailRow label={copy.oldest}>
            <When iso={outbox.oldestAt} now={now} />
          </DetailRow>
        ) : null}
      </dl>
    </Section>
  );
}

function Release({ release, now }: { release: SystemView['release']; now: number }) {
  return (
    <Section id="system-release" heading={copy.releaseHeading} look="large" className="card">
      <dl className="mt-2">
        <DetailRow label={copy.releaseLabel}>{release.label}</DetailRow>
        <DetailRow label={copy.serverStarted}>
          <When iso={release.startedAt} now={now} />
        </DetailRow>
      </dl>
    </Section>
  );
}

/**
 * Sending an issue. For a draft or a scheduled issue: "Send a test" (to the console's own
 * addresses), "Send now" (after a dialog that says who receives it), a UK time to send it at, and
 * "Unschedule". Once it goes out: its progress (recipients and what became of them, with a
 * progress bar), "Pause" or "Resume", and "Cancel sending" (after a dialog). Each action answers
 * with the issue as it now stands, which the page shows; a control that an action removes hands
 * focus to its section's heading (`onDone`).
 */
import { useId, type ReactNode, type RefObject } from 'react';
import { newsletterIssuesCopy as copy } from '~/content/newsletter-console';
import type { ApiResult } from '~/lib/api-client';
import { ConfirmButton } from '~/components/console/dialog';
import { useAction } from '~/components/console/notices';
import { ScheduleForm, ukTime } from '~/components/console/schedule-form';
import { DetailRow } from '~/components/console/page';
import { issueRoutes, type IssueDetail, type IssueProgress } from '../issues-console-contract';
import { isEditable, isGoingOut, postTo } from './issue-api';

type Changed = (issue: IssueDetail) => void;

/** A section whose heading can take focus (after an action removed the control that had it). */
function FocusSection({
  id,
  heading,
  headingRef,
  className,
  children,
}: {
  id: string;
  heading: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
        {heading}
      </h2>
      {children}
    </section>
  );
}

// --- Before it goes out ---------------------------------------------------------------------------

/**
 * The test, "Send now", the schedule and "Unschedule", for a draft or a scheduled issue. With
 * unsaved changes in the form they wait (the line that says so describes them): they would act
 * on the saved issue.
 */
export function SendSection({
  issue,
  onChange,
  dirty,
  unsavedId,
  headingRef,
  onDone,
}: {
  issue: IssueDetail;
  onChange: Changed;
  dirty: boolean;
  unsavedId: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onDone: (target: 'progress' | 'send') => void;
}) {
  const { busy, run } = useAction();
  const blocked = dirty || busy !== null;
  const describedBy = dirty ? unsavedId : undefined;
  const scheduled = issue.status === 'scheduled';

  const act = (key: 'send' | 'unschedule', request: () => Promise<ApiResult<IssueDetail>>, text: string) =>
    void run(key, request, () => text).then((done) => {
      if (!done) return;
      onChange(done);
      onDone(key === 'send' ? 'progress' : 'send');
    });

  if (!isEditable(issue.status)) return null;
  return (
    <FocusSection id="issue-send" heading={copy.sendHeading} headingRef={headingRef} className="card mt-8">
      {scheduled ? (
        <p className="mt-2 rounded-lg border-l-4 border-brand-700 bg-brand-50 px-4 py-3 text-ink-900">
          {copy.scheduledNote(ukTime(issue.scheduledFor, issue.scheduledForLocal))}
        </p>
      ) : null}
      <p className="mt-3 max-w-prose text-ink-700">{copy.testIntro}</p>
      <p className="mt-3">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={blocked}
          aria-describedby={describedBy}
          onClick={() =>
            void run(
              'test',
              () => postTo(issueRoutes.test, issue.id),
              (answer) => copy.testSent(answer.sentTo),
            )
          }
        >
          {busy === 'test' ? copy.sendingTest : copy.sendTest}
        </button>
      </p>
      <p className="mt-6 max-w-prose text-ink-700">{copy.sendNowIntro}</p>
      <div className="mt-3 flex flex-wrap gap-3">
        <ConfirmButton
          label={busy === 'send' ? copy.starting : copy.sendNow}
          title={copy.sendNowTitle}
          text={copy.sendNowText}
          confirmLabel={copy.sendNow}
          cancelLabel={copy.notYet}
          className="btn btn-primary"
          disabled={blocked}
          describedBy={describedBy}
          onConfirm={() => act('send', () => postTo(issueRoutes.send, issue.id, { at: '' }), copy.started)}
        />
        {scheduled ? (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy !== null}
            onClick={() =>
              act('unschedule', () => postTo(issueRoutes.unschedule, issue.id), copy.unscheduled)
            }
          >
            {busy === 'unschedule' ? copy.unscheduling : copy.unschedule}
          </button>
        ) : null}
      </div>
      <ScheduleForm
        initial={issue.scheduledForLocal ?? ''}
        blocked={blocked}
        describedBy={describedBy}
        words={{
          heading: copy.scheduleHeading,
          label: copy.sendAt,
          hint: copy.sendAtHint,
          chooseTime: copy.chooseTime,
          schedule: copy.schedule,
          scheduling: copy.scheduling,
          scheduled: copy.scheduled,
        }}
        submit={(at) => postTo(issueRoutes.send, issue.id, { at })}
        whenOf={(done) => ukTime(done.scheduledFor, done.scheduledForLocal)}
        onChange={onChange}
      />
    </FocusSection>
  );
}

// --- While and after it goes out ------------------------------------------------------------------

const COUNTS = [
  'recipients',
  'sent',
  'waiting',
  'failed',
  'bounced',
  'suppressed',
  'cancelled',
  'unsubscribed',
] as const satisfies readonly (keyof IssueProgress)[];

const number = (n: number) => n.toLocaleString('en-GB');

/** How far it has gone (a progress bar with its words) and what became of each recipient. */
function ProgressFigures({ progress }: { progress: IssueProgress }) {
  const lineId = useId();
  const handled = Math.max(0, progress.recipients - progress.waiting);
  return (
    <>
      {progress.recipients > 0 ? (
        <>
          <p id={lineId} className="mt-2 text-ink-800">
            {copy.handled(handled, progress.recipients)}
          </p>
          <progress
            aria-label={copy.progressLabel}
            aria-describedby={lineId}
            value={handled}
            max={progress.recipients}
            className="mt-2 h-3 w-full accent-brand-700"
          />
        </>
      ) : (
        <p className="mt-2 text-ink-800">{copy.noRecipients}</p>
      )}
      <dl className="mt-4">
        {COUNTS.map((key) => (
          <DetailRow key={key} label={copy.counts[key]}>
            <span className="tabular-nums">{number(progress[key])}</span>
            {copy.countHints[key] ? (
              <span className="ml-2 text-sm text-ink-600">({copy.countHints[key]})</span>
            ) : null}
          </DetailRow>
        ))}
      </dl>
    </>
  );
}

/** The progress of an issue that has begun to go out, and "Pause", "Resume" and "Cancel sending". */
export function ProgressSection({
  issue,
  onChange,
  headingRef,
  onDone,
}: {
  issue: IssueDetail;
  onChange: Changed;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onDone: () => void;
}) {
  const { busy, run } = useAction();
  const act = (
    key: 'pause' | 'resume' | 'cancel',
    route: typeof issueRoutes.pause | typeof issueRoutes.resume | typeof issueRoutes.cancel,
    text: string,
  ) =>
    void run(
      key,
      () => postTo(route, issue.id),
      () => text,
    ).then((done) => {
      if (!done) return;
      onChange(done);
      onDone();
    });

  return (
    <FocusSection
      id="issue-progress"
      heading={copy.progressHeading}
      headingRef={headingRef}
      className="card mt-8"
    >
      {issue.progress ? <ProgressFigures progress={issue.progress} /> : null}
      {isGoingOut(issue.status) ? (
        <div className="mt-4 flex flex-wrap gap-3">
          {issue.status === 'sending' ? (
            <button
              type="button"
              className="btn btn-secondary"
              disabled={busy !== null}
              onClick={() => act('pause', issueRoutes.pause, copy.paused)}
            >
              {busy === 'pause' ? copy.pausing : copy.pause}
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-primary"
              disabled={busy !== null}
              onClick={() => act('resume', issueRoutes.resume, copy.resumed)}
            >
              {busy === 'resume' ? copy.resuming : copy.resume}
            </button>
          )}
          <ConfirmButton
            label={copy.cancelSending}
            title={copy.cancelTitle}
            text={copy.cancelText}
            cancelLabel={copy.keepSending}
            disabled={busy !== null}
            onConfirm={() => act('cancel', issueRoutes.cancel, copy.cancelled)}
          />
        </div>
      ) : null}
    </FocusSection>
  );
}

/**
 * The small page behind a booking e-mail's signed link. It first asks the server what the
 * link is for (nothing changes on opening it, so a mail scanner following the link is
 * harmless), then shows the booking and one button: the owner confirms (after picking the
 * start of the 45-minute session inside the chosen window) or declines, and confirms or keeps a
 * move the applicant asked for; the applicant cancels, or asks to move to a free half-day.
 * A forged, expired or used link gets a clear refusal.
 */
import { lazy, Suspense, useState } from 'react';
import { bookingActionCopy as copy } from '~/content/booking';
import { ChoiceGroup } from '~/components/form/choice-group';
import { SignedLinkPage, type LinkLookup, type LinkOutcome } from '~/components/signed-link-page';
import { LinkRequestError, actOnLink, fetchLinkView, type LinkView } from './booking-link-api';
// The reschedule link's chooser (and the availability it reads) is fetched by that page alone.
const MoveChoice = lazy(() => import('./booking-move-choice'));

function headingFor(view: LinkView): string {
  switch (view.action) {
    case 'confirm-first':
      return copy.confirmHeading(1);
    case 'confirm-second':
      return copy.confirmHeading(2);
    case 'decline':
      return copy.declineHeading;
    case 'cancel':
      return copy.cancelHeading;
    case 'reschedule':
      return copy.rescheduleHeading;
    case 'confirm-move':
      return copy.confirmMoveHeading;
    case 'keep-time':
      return copy.keepTimeHeading;
  }
}

function buttonFor(view: LinkView): string {
  if (view.action === 'decline') return copy.declineButton;
  if (view.action === 'cancel') return copy.cancelButton;
  if (view.action === 'reschedule') return copy.rescheduleButton;
  if (view.action === 'keep-time') return copy.keepTimeButton;
  return copy.confirmButton;
}

/** A refusal the visitor can answer on the same page (another start time, another half-day). */
const retryable = (error: unknown) =>
  error instanceof LinkRequestError &&
  (error.reason === 'network' || error.reason === 'start' || error.reason === 'taken');

function messageOf(error: unknown): string {
  return error instanceof LinkRequestError ? error.message : copy.refusals.network;
}

export function BookingLinkPage() {
  const [start, setStart] = useState('');
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [taken, setTaken] = useState<string>();
  const [meetingLink, setMeetingLink] = useState('');

  function lookup(token: string): Promise<LinkLookup<LinkView>> {
    return fetchLinkView(token, copy.refusals.network).then(
      (view) => {
        setStart(view.choice?.startTimes[0]?.value ?? '');
        setMeetingLink(view.meetingLink ?? '');
        return { view };
      },
      (error: unknown) => ({ refused: messageOf(error) }),
    );
  }

  async function act(token: string, view: LinkView): Promise<LinkOutcome> {
    if (view.action === 'reschedule' && (!date || !time)) return { error: copy.rescheduleChoiceMissing };
    try {
      const input =
        view.action === 'reschedule'
          ? { date, time }
          : view.choice
            ? { start, ...(view.meetingLink !== undefined ? { meetingLink } : {}) }
            : {};
      const answer = await actOnLink(token, input, copy.refusals.network);
      return { done: answer.message };
    } catch (error) {
      if (!retryable(error)) return { refused: messageOf(error) };
      if (error instanceof LinkRequestError && error.reason === 'taken') setTaken(error.message);
      return { error: messageOf(error) };
    }
  }

  return (
    <SignedLinkPage
      name="booking-link"
      texts={copy}
      lookup={lookup}
      act={act}
      show={(view) => ({
        heading: headingFor(view),
        rows: [
          ['Reference', view.reference],
          ...(view.applicantName ? ([['Applicant', view.applicantName]] as [string, string][]) : []),
          ['Session format', view.sessionType],
          ...(view.session
            ? ([['Confirmed session', view.session]] as [string, string][])
            : view.choices.map(
                (c, i) => [i === 0 ? 'First choice' : 'Second choice', c] as [string, string],
              )),
          ...(view.move ? ([[copy.moveRow, view.move]] as [string, string][]) : []),
        ],
        extra:
          view.action === 'reschedule' ? (
            <Suspense fallback={<p className="mt-6 text-ink-700">{copy.loading}</p>}>
              <MoveChoice
                date={date}
                time={time}
                error={taken}
                onDate={(next) => {
                  setDate(next);
                  setTime('');
                  setTaken(undefined);
                }}
                onTime={(next) => {
                  setTime(next);
                  setTaken(undefined);
                }}
              />
            </Suspense>
          ) : view.choice ? (
            <>
              <ChoiceGroup
                legend={`${copy.startLegend}: ${view.choice.label}`}
                options={view.choice.startTimes}
                columns={3}
                inputProps={(option) => ({
                  name: 'start',
                  checked: start === option.value,
                  onChange: () => setStart(option.value),
                })}
              />
              {view.meetingLink !== undefined ? (
                <div className="mt-4">
                  <label htmlFor="meeting-link" className="field-label">
                    {copy.meetingLinkLabel}
                  </label>
                  <input
                    id="meeting-link"
                    type="url"
                    className="field-input"
                    maxLength={500}
                    value={meetingLink}
                    onChange={(e) => setMeetingLink(e.target.value)}
                  />
                </div>
              ) : null}
            </>
          ) : null,
        button: {
          label: buttonFor(view),
          className: `btn ${view.action === 'decline' || view.action === 'cancel' || view.action === 'keep-time' ? 'btn-dark' : 'btn-primary'}`,
        },
      })}
    />
  );
}

/**
 * The small page behind a booking e-mail's signed link. It first asks the server what the
 * link is for (nothing changes on opening it, so a mail scanner following the link is
 * harmless), then shows the booking and one button: the owner confirms (after picking the
 * start of the 45-minute session inside the chosen window) or declines; the applicant cancels.
 * A forged, expired or used link gets a clear refusal.
 */
import { useState } from 'react';
import { bookingActionCopy as copy } from '~/content/booking';
import { ChoiceGroup } from '~/components/form/choice-group';
import { SignedLinkPage, type LinkLookup, type LinkOutcome } from '~/components/signed-link-page';
import { LinkRequestError, actOnLink, fetchLinkView, type LinkView } from './booking-link-api';

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
  }
}

function buttonFor(view: LinkView): string {
  if (view.action === 'decline') return copy.declineButton;
  if (view.action === 'cancel') return copy.cancelButton;
  return copy.confirmButton;
}

function messageOf(error: unknown): string {
  return error instanceof LinkRequestError ? error.message : copy.refusals.network;
}

export function BookingLinkPage() {
  const [start, setStart] = useState('');

  function lookup(token: string): Promise<LinkLookup<LinkView>> {
    return fetchLinkView(token, copy.refusals.network).then(
      (view) => {
        setStart(view.choice?.startTimes[0]?.value ?? '');
        return { view };
      },
      (error: unknown) => ({ refused: messageOf(error) }),
    );
  }

  async function act(token: string, view: LinkView): Promise<LinkOutcome> {
    try {
      const answer = await actOnLink(token, view.choice ? start : undefined, copy.refusals.network);
      return { done: answer.message };
    } catch (error) {
      if (error instanceof LinkRequestError && error.reason !== 'network' && error.reason !== 'start') {
        return { refused: error.message };
      }
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
        ],
        extra: view.choice ? (
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
        ) : null,
        button: {
          label: buttonFor(view),
          className: `btn ${view.action === 'decline' || view.action === 'cancel' ? 'btn-dark' : 'btn-primary'}`,
        },
      })}
    />
  );
}

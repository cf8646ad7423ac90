/**
 * The page behind the cancel link of a masterclass registration's e-mails. Opening it changes
 * nothing (mail scanners follow links; they do not press buttons): it asks the server what the
 * link is about and shows the masterclass and the registration's status, with one button to
 * cancel while there is something to cancel. A forged link (403) or a masterclass that is over
 * (410) gets a clear sentence.
 */
import { registrationCancelPage as copy } from '~/content/events';
import { postJson, type ApiFailure } from '~/lib/api-client';
import { SignedLinkPage, type LinkLookup, type LinkOutcome } from '~/components/signed-link-page';
import { ukWhen } from './event-times';
import {
  REGISTRATION_CANCEL_API,
  REGISTRATION_LINK_API,
  type RegistrationCancelAnswer,
  type RegistrationLinkView,
} from './events-api';

/** The sentence for a refused request; `final` when the link will never work. */
function refusalOf(failure: ApiFailure): { message: string; final: boolean } {
  if (failure.status === 403) return { message: copy.refusals.invalid, final: true };
  if (failure.status === 410) return { message: copy.refusals.over, final: true };
  if (failure.status === 0) return { message: copy.refusals.network, final: false };
  if (failure.status === 400) return { message: copy.refusals.invalid, final: true };
  return { message: failure.error, final: false };
}

async function lookup(token: string): Promise<LinkLookup<RegistrationLinkView>> {
  if (!token) return { refused: copy.refusals.missing };
  const result = await postJson<RegistrationLinkView>(REGISTRATION_LINK_API, { token });
  return result.ok ? { view: result.data } : { refused: refusalOf(result).message };
}

async function cancel(token: string): Promise<LinkOutcome> {
  const result = await postJson<RegistrationCancelAnswer>(REGISTRATION_CANCEL_API, { token });
  if (result.ok) return { done: result.data.message };
  const refusal = refusalOf(result);
  return refusal.final ? { refused: refusal.message } : { error: refusal.message };
}

export function RegistrationLinkPage() {
  return (
    <SignedLinkPage
      name="registration-link"
      texts={copy}
      lookup={lookup}
      act={cancel}
      show={(view) => {
        const cancellable =
          !view.eventCancelled && (view.status === 'registered' || view.status === 'waitlisted');
        return {
          heading: view.title,
          rows: [
            [copy.facts.event, view.title],
            [copy.facts.when, ukWhen(new Date(view.startsAt), new Date(view.endsAt))],
            [copy.facts.status, copy.status[view.status]],
          ],
          extra: cancellable ? null : (
            <p className="text-ink-700" data-testid="registration-link-note">
              {view.eventCancelled ? copy.eventCancelled : copy.alreadyCancelled}
            </p>
          ),
          button: cancellable ? { label: copy.button, className: 'btn btn-dark' } : null,
        };
      }}
    />
  );
}

/**
 * The owner's own calendar on the Availability page (decision 037): its secret address, pasted
 * once; its busy times close the half-days they overlap. The address is shown masked; the last
 * read and any error are shown, and it can be read again or removed.
 */
import { useState } from 'react';
import { availabilityPageCopy as copy } from '~/content/console';
import { DateTime } from '~/components/console/dates';
import { SubmitButton, TextField } from '~/components/console/fields';
import { post } from '~/components/console/http';
import { useNotify } from '~/components/console/notices';
import { Section } from '~/components/console/page';
import type { AvailabilityAnswer, CalendarFeedStatus } from '../availability-console-contract';

export function CalendarFeedSection({ initial }: { initial: CalendarFeedStatus }) {
  const notify = useNotify();
  const [status, setStatus] = useState(initial);
  const [address, setAddress] = useState('');
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);

  async function send(path: string, body?: { address: string }) {
    if (sending) return;
    setSending(true);
    const result = await post<AvailabilityAnswer>(path, body);
    setSending(false);
    if (!result.ok) {
      if (result.status === 401) return;
      setError(result.fieldErrors?.address);
      notify({ tone: 'error', text: result.error });
      return;
    }
    setError(undefined);
    setAddress('');
    const calendar = result.data.calendar;
    setStatus(calendar);
    if (!calendar.address) notify({ tone: 'success', text: copy.calendarRemoved });
    else if (calendar.error) notify({ tone: 'error', text: copy.calendarFailed });
    else notify({ tone: 'success', text: copy.calendarRead(calendar.busyHalfDays) });
  }

  return (
    <Section id="availability-calendar" heading={copy.calendarHeading}>
      <p className="mt-1 max-w-prose text-ink-700">{copy.calendarIntro}</p>
      {status.address ? (
        <dl className="mt-3 grid max-w-2xl gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">{copy.calendarAddress}</dt>
          <dd className="break-all">{status.address}</dd>
          <dt className="font-medium">{copy.calendarLastGood}</dt>
          <dd>
            {status.lastGoodAt ? (
              <>
                <DateTime iso={status.lastGoodAt} />
                {copy.calendarCounts(status.events, status.busyHalfDays)}
              </>
            ) : (
              copy.calendarNever
            )}
          </dd>
        </dl>
      ) : (
        <p className="mt-3">{copy.calendarNone}</p>
      )}
      {status.error ? (
        <div
          role="alert"
          className="mt-3 max-w-prose rounded border border-red-700 bg-red-50 p-3 text-red-900"
        >
          <p className="font-semibold">{copy.calendarErrorHeading}</p>
          <p>{status.error}</p>
          <p>{status.lastGoodAt ? copy.calendarStillUsed : copy.calendarNothingUsed}</p>
        </div>
      ) : null}
      <form
        className="mt-4 max-w-2xl"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void send('/availability/calendar', { address });
        }}
      >
        <TextField
          name="calendar-address"
          label={status.address ? copy.calendarReplace : copy.calendarPaste}
          hint={copy.calendarPasteHint}
          value={address}
          onChange={setAddress}
          maxLength={2000}
          error={error}
          validated
        />
        <div className="flex flex-wrap gap-3">
          <SubmitButton busy={sending} label={copy.calendarSave} busyLabel={copy.calendarReading} />
          {status.address ? (
            <>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={sending}
                onClick={() => void send('/availability/calendar/refresh')}
              >
                {copy.calendarReadNow}
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                disabled={sending}
                onClick={() => void send('/availability/calendar', { address: '' })}
              >
                {copy.calendarRemove}
              </button>
            </>
          ) : null}
        </div>
      </form>
    </Section>
  );
}

/**
 * One submission: every field as the visitor sent it (shown as text, never as HTML), the consents
 * given with it in their exact wording, every e-mail it produced with its delivery, and what the
 * owner can do with it: "Mark as spam" a delivered one, "Not spam" or "Delete" a held one.
 */
import { Link, useLocation, useNavigate } from 'react-router';
import { submissionCopy as copy } from '~/content/console';
import { formTypeLabels, spamReasonLabels, type ReleaseAnswer, type SubmissionDetail } from './api';
import { DeliveriesTable } from './deliveries';
import { post } from './http';
import { page } from './paths';
import { Badge, ConfirmButton, DateTime, Loaded, PageHeading, useAction, useResource } from './ui';

export function spamReasonLabel(reason: string | null): string {
  return (reason && spamReasonLabels[reason]) || reason || '';
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-ink-100 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-ink-700">{label}</dt>
      <dd className="min-w-0 break-words whitespace-pre-wrap text-ink-900">{children}</dd>
    </div>
  );
}

function Actions({ item, reload }: { item: SubmissionDetail; reload: () => void }) {
  const navigate = useNavigate();
  const { busy, run } = useAction();
  const base = `/submissions/${encodeURIComponent(item.id)}`;
  if (!item.spam)
    return (
      <button
        type="button"
        className="btn btn-secondary"
        disabled={busy !== null}
        onClick={() =>
          void run(
            'spam',
            () => post(`${base}/mark-spam`),
            () => copy.markedSpam,
          ).then((done) => done && reload())
        }
      >
        {copy.markSpam}
      </button>
    );
  return (
    <>
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy !== null}
        onClick={() =>
          void run(
            'release',
            () => post<ReleaseAnswer>(`${base}/release`),
            (answer) => copy.releasedMessage(answer.emails),
          ).then((done) => done && reload())
        }
      >
        {copy.notSpam}
      </button>
      <ConfirmButton
        label={copy.delete}
        title={copy.confirmDeleteTitle}
        text={copy.confirmDeleteText}
        disabled={busy !== null}
        onConfirm={() =>
          void run(
            'delete',
            () => post(`${base}/delete`),
            () => null,
          ).then((done) => {
            if (done)
              void navigate(page('spam'), { state: { notice: { tone: 'success', text: copy.deleted } } });
          })
        }
      />
    </>
  );
}

export function SubmissionPage({ id }: { id: string }) {
  const location = useLocation();
  const [detail, reload] = useResource<SubmissionDetail>(`/submissions/${encodeURIComponent(id)}`);
  const back = (location.state as { back?: string } | null)?.back;
  const title = detail.state === 'ready' ? detail.data.name || detail.data.email : copy.titleFallback;

  return (
    <>
      <p className="mb-2">
        <Link to={back ?? page('inbox')} className="text-link">
          {copy.back}
        </Link>
      </p>
      <PageHeading title={title}>{title}</PageHeading>
      <Loaded resource={detail} reload={reload}>
        {(item) => (
          <>
            <section aria-labelledby="submission-summary" className="card mt-6">
              <h2 id="submission-summary" className="sr-only">
                {copy.summary}
              </h2>
              <dl>
                <Row label={copy.form}>{formTypeLabels[item.formType] ?? item.formType}</Row>
                <Row label={copy.received}>
                  <DateTime iso={item.receivedAt} />
                </Row>
                <Row label={copy.status}>
                  {item.spam ? (
                    <Badge tone="bad">{copy.spam}</Badge>
                  ) : (
                    <Badge tone="good">{copy.delivered}</Badge>
                  )}
                  {item.releasedAt ? (
                    <span className="ml-2 text-sm text-ink-700">
                      {copy.released}: <DateTime iso={item.releasedAt} />
                    </span>
                  ) : null}
                </Row>
                {item.spam ? <Row label={copy.reason}>{spamReasonLabel(item.spamReason)}</Row> : null}
                {item.bookingId ? (
                  <Row label={copy.booking}>
                    <Link to={page('bookings')} className="text-link">
                      {copy.openBooking}
                    </Link>
                  </Row>
                ) : null}
              </dl>
              <h2 className="sr-only">{copy.actionsHeading}</h2>
              <div className="mt-4 flex flex-wrap gap-3">
                <Actions item={item} reload={reload} />
              </div>
            </section>

            <section aria-labelledby="submission-fields" className="card mt-6">
              <h2 id="submission-fields" className="text-lg font-semibold">
                {copy.fieldsHeading}
              </h2>
              <dl className="mt-2">
                {item.fields.map((field) => (
                  <Row key={field.name} label={field.name}>
                    {field.value}
                  </Row>
                ))}
              </dl>
            </section>

            <section aria-labelledby="submission-consents" className="card mt-6">
              <h2 id="submission-consents" className="text-lg font-semibold">
                {copy.consentsHeading}
              </h2>
              {item.consents.length === 0 ? (
                <p className="mt-2 text-ink-700">{copy.noConsents}</p>
              ) : (
                <ul className="mt-2 space-y-3">
                  {item.consents.map((consent) => (
                    <li
                      key={`${consent.consentId}-${consent.givenAt}`}
                      className="border-l-4 border-ink-200 pl-3"
                    >
                      <blockquote className="break-words whitespace-pre-wrap text-ink-900">
                        {consent.wording}
                      </blockquote>
                      <p className="mt-1 text-sm text-ink-700">
                        {copy.givenAt} <DateTime iso={consent.givenAt} /> ({consent.consentId})
                      </p>
                    </li>
                  ))}
                </ul>
              )}
            </section>

            <section aria-labelledby="submission-emails" className="mt-8">
              <h2 id="submission-emails" className="text-lg font-semibold">
                {copy.emailsHeading}
              </h2>
              {item.emails.length === 0 ? (
                <p className="mt-2 text-ink-700">{copy.noEmails}</p>
              ) : (
                <DeliveriesTable items={item.emails} onRetried={reload} />
              )}
            </section>
          </>
        )}
      </Loaded>
    </>
  );
}

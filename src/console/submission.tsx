/**
 * One submission: every field as the visitor sent it (shown as text, never as HTML), the consents
 * given with it in their exact wording, every e-mail it produced with its delivery, and what the
 * owner can do with it: "Mark as spam" a delivered one, "Not spam" or "Delete" a held one.
 */
import { Link, useLocation, useNavigate } from 'react-router';
import { submissionCopy as copy } from '~/content/console';
import {
  formTypeLabels,
  spamReasonLabels,
  type ReleaseAnswer,
  type SubmissionDetail,
} from '~/contract/console';
import { DeliveriesTable } from './deliveries';
import { post } from '~/components/console/http';
import { page } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { ConfirmButton } from '~/components/console/dialog';
import { IfMayUse } from '~/components/console/role';
import { spamRoutes } from '~/contract/inbox';
import { useAction } from '~/components/console/notices';
import { Badge, DetailRow, IfAny, ItemPage, Section } from '~/components/console/page';
import { fieldLabel } from '~/content/submission-fields';
import { LeadBadge, LeadStateButton, LeadWork } from './lead-work';

const EMAIL_LABEL = fieldLabel('email');
/** An address a mailto: link can carry as it is: one holding ? & % or # would add headers or a body. */
const LINKABLE = /^[^?&%#]+$/;

export function spamReasonLabel(reason: string | null): string {
  return (reason && spamReasonLabels[reason]) || reason || '';
}

function Actions({ item, reload }: { item: SubmissionDetail; reload: () => void }) {
  const navigate = useNavigate();
  const action = useAction();
  const { busy, run } = action;
  if (!item.spam)
    return (
      <button
        type="button"
        className="btn btn-secondary"
        disabled={busy !== null}
        onClick={() =>
          void run(
            'spam',
            () => post(`/submissions/${encodeURIComponent(item.id)}/mark-spam`),
            () => copy.markedSpam,
          ).then((done) => done && reload())
        }
      >
        {copy.markSpam}
      </button>
    );
  return (
    <HeldActions
      id={item.id}
      action={action}
      reload={reload}
      onDeleted={() =>
        void navigate(page('spam'), { state: { notice: { tone: 'success', text: copy.deleted } } })
      }
    />
  );
}

/**
 * "Not spam" (delivers the submission, once) and "Delete" (after asking) for a held submission:
 * on its own page, and in each row of the spam list, where they are smaller and described by the
 * row's sender. Both reload what is shown; a delete calls `onDeleted` instead when given.
 */
export function HeldActions({
  id,
  action: { busy, run },
  reload,
  onDeleted,
  describedBy,
  small = false,
}: {
  id: string;
  action: ReturnType<typeof useAction>;
  reload: () => void;
  /** After a delete, instead of reloading (and saying so): e.g. leave the deleted one's page. */
  onDeleted?: () => void;
  describedBy?: string;
  small?: boolean;
}) {
  const base = `/submissions/${encodeURIComponent(id)}`;
  const size = small ? ' min-h-10 px-3 py-1.5' : '';
  return (
    <>
      <button
        type="button"
        className={`btn btn-primary${size}`}
        aria-describedby={describedBy}
        disabled={busy !== null}
        onClick={() =>
          void run(
            `release-${id}`,
            () => post<ReleaseAnswer>(`${base}/release`),
            (answer) => copy.releasedMessage(answer.emails),
          ).then((done) => done && reload())
        }
      >
        {copy.notSpam}
      </button>
      <IfMayUse route={spamRoutes.delete}>
        <ConfirmButton
          label={copy.delete}
          title={copy.confirmDeleteTitle}
          text={copy.confirmDeleteText}
          className={`btn btn-secondary${size}`}
          describedBy={describedBy}
          disabled={busy !== null}
          onConfirm={() =>
            void run(
              `delete-${id}`,
              () => post(`${base}/delete`),
              () => (onDeleted ? null : copy.deleted),
            ).then((done) => done && (onDeleted ?? reload)())
          }
        />
      </IfMayUse>
    </>
  );
}

export function SubmissionPage({ id }: { id: string }) {
  const location = useLocation();
  const [detail, reload] = useResource<SubmissionDetail>(`/submissions/${encodeURIComponent(id)}`);
  const back = (location.state as { back?: string } | null)?.back;
  const title = detail.state === 'ready' ? detail.data.name || detail.data.email : copy.titleFallback;

  return (
    <ItemPage
      back={back ?? page('inbox')}
      backLabel={copy.back}
      title={title}
      resource={detail}
      reload={reload}
    >
      {(item) => (
        <>
          <Section id="submission-summary" heading={copy.summary} className="card mt-6" look="hidden">
            <dl>
              <DetailRow keepLines label={copy.form}>
                {formTypeLabels[item.formType] ?? item.formType}
              </DetailRow>
              <DetailRow keepLines label={copy.received}>
                <DateTime iso={item.receivedAt} />
              </DetailRow>
              <DetailRow keepLines label={copy.status}>
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
              </DetailRow>
              {item.spam ? (
                <DetailRow keepLines label={copy.reason}>
                  {spamReasonLabel(item.spamReason)}
                </DetailRow>
              ) : (
                <DetailRow keepLines label={copy.lead}>
                  {item.state === null ? copy.notALead : <LeadBadge state={item.state} />}
                </DetailRow>
              )}
              {item.bookingId ? (
                <DetailRow keepLines label={copy.booking}>
                  <Link to={page('bookings')} className="text-link">
                    {copy.openBooking}
                  </Link>
                </DetailRow>
              ) : null}
            </dl>
            <h2 className="sr-only">{copy.actionsHeading}</h2>
            <div className="mt-4 flex flex-wrap gap-3">
              <Actions item={item} reload={reload} />
              {item.spam ? null : <LeadStateButton item={item} reload={reload} />}
            </div>
          </Section>

          <Section id="submission-fields" heading={copy.fieldsHeading} className="card mt-6">
            <dl className="mt-2">
              {item.fields.map((field) => (
                <DetailRow keepLines key={field.name} label={field.name}>
                  {field.name === EMAIL_LABEL && field.value === item.email && LINKABLE.test(item.email) ? (
                    <a
                      href={`mailto:${item.email}`}
                      className="text-link break-all"
                      title={copy.emailLink(item.email)}
                    >
                      {field.value}
                    </a>
                  ) : (
                    field.value
                  )}
                </DetailRow>
              ))}
            </dl>
          </Section>

          <LeadWork item={item} reload={reload} />

          <Section id="submission-consents" heading={copy.consentsHeading} className="card mt-6">
            <IfAny items={item.consents} none={copy.noConsents}>
              <ul className="mt-2 space-y-3">
                {item.consents.map((consent) => (
                  <li
                    key={`${consent.consentId}-${consent.givenAt}`}
                    className="border-l-4 border-ink-200 pl-3"
                  >
                    <blockquote className="wrap-anywhere whitespace-pre-wrap text-ink-900">
                      {consent.wording}
                    </blockquote>
                    <p className="mt-1 text-sm text-ink-700">
                      {copy.givenAt} <DateTime iso={consent.givenAt} /> ({consent.consentId})
                    </p>
                  </li>
                ))}
              </ul>
            </IfAny>
          </Section>

          <Section id="submission-emails" heading={copy.emailsHeading} className="mt-8">
            <IfAny items={item.emails} none={copy.noEmails}>
              <DeliveriesTable items={item.emails} onRetried={reload} />
            </IfAny>
          </Section>
        </>
      )}
    </ItemPage>
  );
}

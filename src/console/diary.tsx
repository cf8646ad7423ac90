/**
 * The owner's calendar subscription (decision 035): the secret address to add to the owner's own
 * calendar, how to add it, and replacing it behind a dialog that says what replacing breaks.
 */
import { diaryCopy as copy } from '~/content/console';
import type { DiaryAnswer } from '~/contract/diary';
import { useResource, Loaded } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { ConfirmButton } from '~/components/console/dialog';
import { post } from '~/components/console/http';
import { useAction } from '~/components/console/notices';
import { DetailRow, PageHeading, Section } from '~/components/console/page';

export function DiaryPage() {
  const [diary, reload] = useResource<DiaryAnswer>('/diary');
  const { busy, run } = useAction();
  const make = (done: string) =>
    void run(
      'replace',
      () => post<DiaryAnswer>('/diary/address', {}),
      () => done,
    ).then((answer) => answer && reload());
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 max-w-prose text-ink-700">{copy.intro}</p>
      <Loaded resource={diary} reload={reload}>
        {({ address }) =>
          address ? (
            <>
              <Section id="diary-address" heading={copy.addressHeading} className="mt-6">
                <dl className="mt-2">
                  <DetailRow label={copy.https}>
                    <code className="font-mono text-sm break-all" data-testid="diary-address">
                      {address.https}
                    </code>
                  </DetailRow>
                  <DetailRow label={copy.webcal}>
                    <a className="text-link" href={address.webcal}>
                      {copy.webcalLink}
                    </a>
                  </DetailRow>
                  <DetailRow label={copy.since}>
                    <DateTime iso={address.createdAt} />
                  </DetailRow>
                </dl>
                <p className="mt-4 max-w-prose text-ink-700">{copy.secret}</p>
              </Section>
              <Section id="diary-how" heading={copy.howHeading} className="mt-6">
                <ul className="mt-2 list-disc space-y-1 pl-6 text-ink-700">
                  {copy.how.map((step) => (
                    <li key={step}>{step}</li>
                  ))}
                </ul>
              </Section>
              <p className="mt-6">
                <ConfirmButton
                  label={copy.replace}
                  title={copy.replaceTitle}
                  text={copy.replaceText}
                  confirmLabel={copy.replaceConfirm}
                  disabled={busy !== null}
                  onConfirm={() => make(copy.replaced)}
                />
              </p>
            </>
          ) : (
            <>
              <p className="mt-6 text-ink-700">{copy.none}</p>
              <p className="mt-4">
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy !== null}
                  onClick={() => make(copy.created)}
                >
                  {copy.create}
                </button>
              </p>
            </>
          )
        }
      </Loaded>
    </>
  );
}

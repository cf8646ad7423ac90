/**
 * The page behind the link of an address confirmation e-mail (decision 030): someone whose address
 * is on the suppression list asked for something again. Opening it changes nothing (mail scanners
 * follow links): one button lifts the suppression and sends what was asked for.
 */
import { PageHero } from '~/components/sections/page-hero';
import { SignedLinkPage, type LinkLookup, type LinkOutcome } from '~/components/signed-link-page';
import {
  ADDRESS_CONFIRM_API,
  ADDRESS_CONFIRM_PATH,
  addressConfirmPage as copy,
} from '~/content/address-confirm';
import { postJson } from '~/lib/api-client';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({ path: ADDRESS_CONFIRM_PATH, title: copy.title, description: copy.description, noindex: true });

/** The token is checked when the button is pressed: the page needs nothing else to show. */
async function lookup(token: string): Promise<LinkLookup<true>> {
  return token ? { view: true } : { refused: copy.missing };
}

async function confirm(token: string): Promise<LinkOutcome> {
  const result = await postJson<{ status: string }>(ADDRESS_CONFIRM_API, { token });
  if (result.ok) return { done: copy.done };
  if (result.status === 400 || result.status === 410) return { refused: result.error };
  return { error: result.error };
}

export default function AddressConfirm() {
  return (
    <>
      <PageHero eyebrow={copy.eyebrow} title={copy.title} />
      <div className="mx-auto max-w-3xl px-4 pb-16 md:pb-24">
        <SignedLinkPage
          name="address-confirm"
          texts={copy}
          lookup={lookup}
          act={confirm}
          show={() => ({
            heading: copy.heading,
            rows: copy.facts,
            button: { label: copy.button, className: 'btn btn-primary' },
          })}
        />
      </div>
    </>
  );
}

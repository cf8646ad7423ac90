import type { CallToAction } from '~/content/types';
import { ActionLink } from '~/components/ui/action-link';

/** The dark call-to-action block that closes most pages. */
export function CtaBanner({
  title,
  text,
  primary,
  secondary,
}: {
  title: string;
  text: string;
  primary: CallToAction;
  secondary?: CallToAction;
}) {
  return (
    <section aria-labelledby="cta-title" className="px-4 pb-16 md:pb-24">
      <div className="cta-surface mx-auto max-w-6xl rounded-3xl px-6 py-12 text-center sm:px-12 md:py-16">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
          {title}
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg leading-relaxed text-ink-200">{text}</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ActionLink to={primary.to} variant="primary">
            {primary.label}
          </ActionLink>
          {secondary ? (
            <ActionLink to={secondary.to} variant="light">
              {secondary.label}
            </ActionLink>
          ) : null}
        </div>
      </div>
    </section>
  );
}

/** The top of every page: its one h1, with room under the fixed navbar. */
export function PageHero({
  eyebrow,
  title,
  intro,
  children,
  aside,
  width = 'wide',
}: {
  eyebrow?: string;
  title: string;
  intro?: string;
  /** Buttons or small print under the intro. */
  children?: React.ReactNode;
  /** Optional second column on large screens. */
  aside?: React.ReactNode;
  /** Matches the width of the content below, so the hero lines up with it. */
  width?: 'wide' | 'narrow' | 'prose';
}) {
  const container = { wide: 'max-w-6xl', narrow: 'max-w-4xl', prose: 'max-w-3xl' }[width];
  return (
    <section className="hero-surface">
      <div
        className={
          `mx-auto ${container} px-4 pt-28 pb-14 md:pt-36 md:pb-20 ` +
          (aside ? 'grid items-center gap-12 lg:grid-cols-[1.15fr_1fr]' : '')
        }
      >
        <div className={aside ? '' : 'max-w-3xl'}>
          {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
          <h1 className="mt-3 text-4xl leading-tight font-bold tracking-tight text-ink-900 sm:text-5xl">
            {title}
          </h1>
          {intro ? <p className="mt-5 text-lg leading-relaxed text-ink-700">{intro}</p> : null}
          {children}
        </div>
        {aside}
      </div>
    </section>
  );
}

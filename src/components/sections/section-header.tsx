/** An h2 with its eyebrow and intro, shared by the page sections. */
export function SectionHeader({
  eyebrow,
  title,
  intro,
  id,
  align = 'center',
  tone = 'light',
}: {
  eyebrow?: string;
  title: string;
  intro?: string;
  /** Id of the h2, for aria-labelledby on the section. */
  id?: string;
  align?: 'center' | 'left';
  tone?: 'light' | 'dark';
}) {
  return (
    <div className={align === 'center' ? 'mx-auto max-w-2xl text-center' : 'max-w-2xl'}>
      {eyebrow ? <p className={tone === 'dark' ? 'eyebrow text-brand-200' : 'eyebrow'}>{eyebrow}</p> : null}
      <h2
        id={id}
        className={
          'mt-2 text-3xl font-bold tracking-tight sm:text-4xl ' +
          (tone === 'dark' ? 'text-white' : 'text-ink-900')
        }
      >
        {title}
      </h2>
      {intro ? (
        <p className={'mt-4 text-lg leading-relaxed ' + (tone === 'dark' ? 'text-ink-200' : 'text-ink-700')}>
          {intro}
        </p>
      ) : null}
    </div>
  );
}

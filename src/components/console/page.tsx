/**
 * The parts of a console page: its heading (which takes focus when the page opens), its
 * sections, warning banners and status badges, and the page of one thing with the link back and
 * its facts as detail rows.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { consoleCopy } from '~/content/console';
import { Loaded, type Resource } from './data';

/** The page's h1. It takes focus when the page opens, so a screen reader reads where it is. */
export function PageHeading({ children, title }: { children: ReactNode; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} | ${consoleCopy.brand}`;
    ref.current?.focus();
  }, [title]);
  return (
    <h1
      ref={ref}
      tabIndex={-1}
      className="text-2xl font-bold wrap-anywhere text-ink-900 outline-none md:text-3xl"
    >
      {children}
    </h1>
  );
}

/** A warning banner: its heading and sentences. */
export function Banner({
  heading,
  items,
  children,
}: {
  heading: string;
  items: readonly string[];
  children?: ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <section className="mt-6 rounded-lg border-l-4 border-brand-700 bg-brand-50 px-4 py-3">
      <h2 className="font-semibold text-ink-900">{heading}</h2>
      <ul className="mt-1 list-disc pl-5 wrap-anywhere text-ink-800">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      {children}
    </section>
  );
}

/** A small coloured label (a status). */
export function Badge({
  tone,
  children,
}: {
  tone: 'neutral' | 'good' | 'bad' | 'warn';
  children: ReactNode;
}) {
  const tones = {
    neutral: 'bg-ink-100 text-ink-800',
    good: 'bg-success-100 text-success-800',
    bad: 'bg-white text-danger-700 ring-1 ring-danger-700',
    warn: 'bg-brand-100 text-brand-800',
  };
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

const sectionHeadings = {
  normal: 'text-lg font-semibold',
  large: 'text-xl font-semibold',
  hidden: 'sr-only',
};

/** A part of a page under its own h2, which names it (`aria-labelledby`) for a screen reader. */
export function Section({
  id,
  heading,
  className,
  look = 'normal',
  children,
}: {
  id: string;
  heading: string;
  className?: string;
  /** How the heading looks; `hidden`: for screen readers only. */
  look?: keyof typeof sectionHeadings;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={sectionHeadings[look]}>
        {heading}
      </h2>
      {children}
    </section>
  );
}

/** `children` when there are `items`; otherwise the sentence `none`, which says there are none. */
export function IfAny({
  items,
  none,
  children,
}: {
  items: readonly unknown[];
  none: string;
  children: ReactNode;
}) {
  return items.length === 0 ? <p className="mt-2 text-ink-700">{none}</p> : children;
}

// --- One thing's page -----------------------------------------------------------------------------------

/** The link above a page's heading, back to where it was opened from (its list, its event). */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="mb-2">
      <Link to={to} className="text-link">
        {children}
      </Link>
    </p>
  );
}

/**
 * The page of one thing (a submission, an event): the link back, the heading (the thing's name
 * once it has loaded) and the thing as `children` draws it.
 */
export function ItemPage<T>({
  back,
  backLabel,
  title,
  resource,
  reload,
  children,
}: {
  back: string;
  backLabel: string;
  title: string;
  resource: Resource<T>;
  reload: () => void;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      <BackLink to={back}>{backLabel}</BackLink>
      <PageHeading title={title}>{title}</PageHeading>
      <Loaded resource={resource} reload={reload}>
        {children}
      </Loaded>
    </>
  );
}

/**
 * One fact in a definition list (`<dl>`): its label beside its value on a wide screen, above it on
 * a narrow one. `keepLines` keeps the value's line breaks (what a visitor typed).
 */
export function DetailRow({
  label,
  keepLines = false,
  children,
}: {
  label: string;
  keepLines?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1 border-b border-ink-100 py-2 sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-ink-700">{label}</dt>
      <dd
        className={
          keepLines
            ? 'min-w-0 wrap-anywhere whitespace-pre-wrap text-ink-900'
            : 'min-w-0 wrap-anywhere text-ink-900'
        }
      >
        {children}
      </dd>
    </div>
  );
}

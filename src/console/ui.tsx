/**
 * What every console page is built from: loading a resource of the API, the page heading that
 * takes focus when the page opens, the live regions that announce what an action did, a
 * confirmation dialog for what cannot be undone, dates in UK time, tables that scroll inside
 * themselves on a narrow screen, lists with their status line and pages, and the facts of one thing.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Link } from 'react-router';
import type { ApiResult } from '~/lib/api-client';
import { consoleCopy } from '~/content/console';
import { getJson } from './http';
import { useQuery } from './paths';

// --- Loading --------------------------------------------------------------------------------------

export type Resource<T> =
  { state: 'loading' } | { state: 'error'; error: string; status: number } | { state: 'ready'; data: T };

/** GETs `path` of the console API (again whenever it changes, or on `reload`). */
export function useResource<T>(path: string): [Resource<T>, () => void] {
  const [loaded, setLoaded] = useState<{ path: string; resource: Resource<T> }>({
    path,
    resource: { state: 'loading' },
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    void getJson<T>(path, controller.signal).then((result: ApiResult<T>) => {
      if (controller.signal.aborted) return;
      setLoaded({
        path,
        resource: result.ok
          ? { state: 'ready', data: result.data }
          : { state: 'error', error: result.error, status: result.status },
      });
    });
    return () => controller.abort();
  }, [path, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  // A reload keeps what is shown until the new answer; another path starts from "loading".
  return [loaded.path === path ? loaded.resource : { state: 'loading' }, reload];
}

/** The loading line, or the error with a way to try again, or the page's content. */
export function Loaded<T>({
  resource,
  reload,
  children,
}: {
  resource: Resource<T>;
  reload: () => void;
  children: (data: T) => ReactNode;
}) {
  if (resource.state === 'ready') return children(resource.data);
  if (resource.state === 'loading') return <p className="mt-6 text-ink-600">{consoleCopy.loading}</p>;
  return (
    <div className="mt-6 rounded-lg border border-danger-700 bg-white p-4">
      <p className="text-danger-700">{resource.error}</p>
      <button type="button" className="btn btn-secondary mt-3" onClick={reload}>
        {consoleCopy.tryAgain}
      </button>
    </div>
  );
}

// --- Headings and announcements -------------------------------------------------------------------

/** The page's h1. It takes focus when the page opens, so a screen reader reads where it is. */
export function PageHeading({ children, title }: { children: ReactNode; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} | ${consoleCopy.brand}`;
    ref.current?.focus();
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1} className="text-2xl font-bold text-ink-900 outline-none md:text-3xl">
      {children}
    </h1>
  );
}

export type Notice = { tone: 'success' | 'error'; text: string };

const NoticeContext = createContext<(notice: Notice | null) => void>(() => {});

/** Shows (and announces) what the last action did; `null` clears it. */
export function useNotify() {
  return useContext(NoticeContext);
}

/**
 * The console's two live regions, always in the page (a region added with its message is not
 * read out): successes politely, failures as alerts. A message stays until the next action or
 * page; a page opened by an action (e.g. back to the list after a delete) starts with the
 * message that action left in the navigation's state.
 */
export function NoticeProvider({
  children,
  resetKey,
  initial,
}: {
  children: ReactNode;
  resetKey: string;
  initial: Notice | null;
}) {
  const [notice, setNotice] = useState<Notice | null>(initial);
  const [shownFor, setShownFor] = useState(resetKey);
  if (shownFor !== resetKey) {
    setShownFor(resetKey);
    setNotice(initial);
  }
  const frame = useRef(0);
  const notify = useCallback((next: Notice | null) => {
    // The same message twice is read out again only if the region changes in between.
    cancelAnimationFrame(frame.current);
    setNotice(null);
    if (next) frame.current = requestAnimationFrame(() => setNotice(next));
  }, []);
  // A message still waiting for its frame belongs to the page it was given on: another page drops it.
  useLayoutEffect(() => () => cancelAnimationFrame(frame.current), [resetKey]);
  return (
    <NoticeContext.Provider value={notify}>
      <div role="status">
        {notice?.tone === 'success' ? (
          <p className="mb-4 rounded-lg border border-success-700 bg-success-100 px-4 py-3 text-success-800">
            {notice.text}
          </p>
        ) : null}
      </div>
      <div role="alert">
        {notice?.tone === 'error' ? (
          <p className="mb-4 rounded-lg border border-danger-700 bg-white px-4 py-3 text-danger-700">
            {notice.text}
          </p>
        ) : null}
      </div>
      {children}
    </NoticeContext.Provider>
  );
}

/** The notice a navigation carries in its state, if any. */
export function noticeOf(state: unknown): Notice | null {
  const notice = (state as { notice?: Notice } | null)?.notice;
  return notice && typeof notice.text === 'string' ? notice : null;
}

/** Runs a POST and shows its outcome on the page it was run from: the success text, or the server's error. */
export function useAction() {
  const notify = useNotify();
  const [busy, setBusy] = useState<string | null>(null);
  // An answer that comes after the owner has left the page is not announced on the next one.
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  const run = useCallback(
    async <T,>(key: string, request: () => Promise<ApiResult<T>>, success: (data: T) => string | null) => {
      setBusy(key);
      const result = await request();
      setBusy(null);
      // Nor does it act there: its follow-up (a reload, a navigation) belonged to the page left.
      if (!shown.current) return undefined;
      if (!result.ok) {
        // 401 has already sent the console back to the sign-in page.
        if (result.status !== 401) notify({ tone: 'error', text: result.error });
        return undefined;
      }
      const text = success(result.data);
      if (text) notify({ tone: 'success', text });
      return result.data;
    },
    [notify],
  );
  return { busy, run };
}

// --- Confirmation -------------------------------------------------------------------------------------

/**
 * A button that asks first: a modal dialog (the browser's own, which keeps focus inside it and
 * closes on Escape) with the consequence spelled out, the action, and a way out.
 */
export function ConfirmButton({
  label,
  title,
  text,
  confirmLabel,
  cancelLabel = consoleCopy.cancel,
  onConfirm,
  disabled,
  className = 'btn btn-secondary',
  describedBy,
}: {
  label: string;
  title: string;
  text: string;
  confirmLabel?: string;
  cancelLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
  /** Names what the button acts on, for a list of many alike (e.g. the row's heading). */
  describedBy?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = () => {
    dialog.current?.close();
  };
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={className}
        disabled={disabled}
        aria-describedby={describedBy}
        aria-haspopup="dialog"
        onClick={() => dialog.current?.showModal()}
      >
        {label}
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-ink-200 bg-white p-6 text-ink-900 shadow-xl backdrop:bg-ink-900/50"
        onClose={() => trigger.current?.focus()}
      >
        <h2 id={`${id}-title`} className="text-lg font-bold">
          {title}
        </h2>
        <p id={`${id}-text`} className="mt-2 text-ink-700">
          {text}
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button type="button" className="btn btn-secondary" onClick={close}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className="btn bg-danger-700 text-white hover:bg-ink-900"
            onClick={() => {
              close();
              onConfirm();
            }}
          >
            {confirmLabel ?? label}
          </button>
        </div>
      </dialog>
    </>
  );
}

// --- Dates ----------------------------------------------------------------------------------------------

const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A moment in UK time ("3 Jun 2025, 14:05"). */
export function formatDateTime(iso: string): string {
  return dateTimeFormat.format(new Date(iso));
}

export function DateTime({ iso }: { iso: string | null }) {
  if (!iso) return <>{consoleCopy.none}</>;
  return <time dateTime={iso}>{formatDateTime(iso)}</time>;
}

// --- Layout pieces ------------------------------------------------------------------------------------

/**
 * A table that scrolls sideways inside its own box on a narrow screen (the page never does);
 * the box is focusable so the keyboard can scroll it, and named by the table's caption.
 */
export function TableBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      // Focusable so the keyboard can scroll it sideways (axe: scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className="mt-4 max-w-full overflow-x-auto rounded-lg border border-ink-200 bg-white"
    >
      {children}
    </div>
  );
}

export const th = 'border-b border-ink-200 bg-ink-50 px-3 py-2 text-left text-sm font-semibold text-ink-700';
export const td = 'border-b border-ink-100 px-3 py-2 align-top text-sm text-ink-900';

/** A column heading of a DataTable: its words, or its words and classes beside `th` (e.g. `text-right`). */
export type ColumnHeading = string | { label: string; className: string };

/** The heading of a column of numbers, set right as its cells are. */
export const numeric = (label: string): ColumnHeading => ({ label, className: 'text-right' });

/**
 * A list's table: in its own scrolling box (TableBox), named by a caption for screen readers,
 * one row of column headings, and the rows given as children.
 */
export function DataTable({
  label,
  caption = label,
  minWidth,
  columns,
  children,
}: {
  /** Names the scrolling box, and the table too unless `caption` says more. */
  label: string;
  caption?: string;
  /** The table's least width, as a class (`min-w-[44rem]`): narrower screens scroll the box. */
  minWidth: string;
  columns: readonly ColumnHeading[];
  children: ReactNode;
}) {
  return (
    <TableBox label={label}>
      <table className={`w-full ${minWidth} border-collapse`}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) =>
              typeof column === 'string' ? (
                <th key={index} scope="col" className={th}>
                  {column}
                </th>
              ) : (
                <th key={index} scope="col" className={`${th} ${column.className}`}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableBox>
  );
}

/** The classes of a row's heading cell (the row's name, e.g. a person or a passkey). */
export const rowTh = `${td} text-left font-medium break-words`;

/** A table cell holding a moment in UK time, kept on one line. */
export function DateCell({ iso }: { iso: string | null }) {
  return (
    <td className={`${td} whitespace-nowrap`}>
      <DateTime iso={iso} />
    </td>
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
      <ul className="mt-1 list-disc pl-5 text-ink-800">
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

// --- Lists ---------------------------------------------------------------------------------------------

/** What a list's status line says: `empty` when there is nothing, else `count`'s words (if any). */
export type ListWords = { empty?: string; count?: (n: number, more: boolean) => string };

/** The list's status line: how many are shown (or that it is loading), read out when it changes. */
export function ListStatus<T extends { items: unknown[]; next?: string | null }>({
  resource,
  empty,
  count,
}: ListWords & { resource: Resource<T> }) {
  let text = '';
  if (resource.state === 'ready') {
    const n = resource.data.items.length;
    text = n === 0 && empty !== undefined ? empty : (count?.(n, !!resource.data.next) ?? '');
  }
  return (
    <p role="status" className="mt-4 text-sm text-ink-700">
      {text}
    </p>
  );
}

/** The words of a Pager's links. */
export type PagerLabels = { older: string; newest: string };

/**
 * "Older" (the next page by the cursor) and "Newest" (back to the first page), as links that
 * change the `after` of the address's query.
 */
export function Pager({ next, labels }: { next: string | null; labels: PagerLabels }) {
  const [params] = useQuery();
  const first = new URLSearchParams(params);
  first.delete('after');
  const older = new URLSearchParams(params);
  if (next) older.set('after', next);
  if (!next && !params.get('after')) return null;
  return (
    <nav aria-label={consoleCopy.pagesLabel} className="mt-4 flex flex-wrap gap-3">
      {params.get('after') ? (
        <Link to={{ search: first.toString() }} className="btn btn-secondary">
          {labels.newest}
        </Link>
      ) : null}
      {next ? (
        <Link to={{ search: older.toString() }} className="btn btn-secondary">
          {labels.older}
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * A list page's body: its status line (ListStatus), then, once loaded, the items as `children`
 * draws them (nothing when there are none) and, for a list in pages, the Pager.
 */
export function LoadedList<T extends { items: unknown[]; next?: string | null }>({
  resource,
  reload,
  empty,
  count,
  pager,
  children,
}: ListWords & {
  resource: Resource<T>;
  reload: () => void;
  /** A list in pages: the Pager's words. */
  pager?: PagerLabels;
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      <ListStatus resource={resource} empty={empty} count={count} />
      <Loaded resource={resource} reload={reload}>
        {(data) =>
          data.items.length === 0 ? null : (
            <>
              {children(data)}
              {pager ? <Pager next={data.next ?? null} labels={pager} /> : null}
            </>
          )
        }
      </Loaded>
    </>
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
            ? 'min-w-0 break-words whitespace-pre-wrap text-ink-900'
            : 'min-w-0 break-words text-ink-900'
        }
      >
        {children}
      </dd>
    </div>
  );
}

// --- Fields ---------------------------------------------------------------------------------------------

export type ControlProps = {
  id: string;
  required?: boolean;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
};

/**
 * One labelled control, drawn as the site's field kit draws its fields (src/components/form:
 * label, optional hint, the error in a line kept in the page and tied to the control). The
 * console keeps its own copy: importing the kit would split the public forms' shared chunk and
 * add a request to the home page's first load.
 */
export function Field({
  id: givenId,
  label,
  hint,
  error,
  validated = false,
  required,
  className,
  children,
}: {
  /** The control's id, when something else links to it (an error summary); made up otherwise. */
  id?: string;
  label: string;
  hint?: string;
  error?: string;
  /** The field is checked on submit: its error line is kept in the page (an alert). */
  validated?: boolean;
  required?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const madeId = useId();
  const id = givenId ?? madeId;
  const describedBy = [hint ? `${id}-hint` : '', validated ? `${id}-error` : ''].filter(Boolean).join(' ');
  const control: ControlProps = {
    id,
    required,
    ...(validated ? { 'aria-invalid': !!error } : {}),
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
  };
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
        {hint ? (
          <span id={`${id}-hint`} className="ml-1 font-normal text-ink-600">
            ({hint})
          </span>
        ) : null}
      </label>
      {children(control)}
      {validated ? (
        <p id={`${id}-error`} role="alert" className="field-error min-h-5">
          {error}
        </p>
      ) : (
        <div className="mb-3" />
      )}
    </div>
  );
}

/** A Field holding a one-line text input whose value the form keeps in its state (no autofill). */
export function TextField({
  name,
  value,
  onChange,
  maxLength,
  ...field
}: Omit<Parameters<typeof Field>[0], 'children'> & {
  name: string;
  value: string;
  onChange: (value: string) => void;
  maxLength?: number;
}) {
  return (
    <Field {...field}>
      {(control) => (
        <input
          {...control}
          type="text"
          name={name}
          maxLength={maxLength}
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="field-input"
        />
      )}
    </Field>
  );
}

/** A form's submit button: while `busy` it says what it is doing and cannot be pressed again. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <button type="submit" className="btn btn-primary" disabled={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}

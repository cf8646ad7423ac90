/**
 * The audit log's route: its entries newest first, 50 a page, each with who did it (by name) and
 * what they did in words, filtered by person, kind and UK dates. A filter the server cannot read
 * is refused with a 400 naming it. A helper reads only their own entries (decision 032): naming
 * another person is refused with 403 (AUDIT_OWN_ONLY).
 */
import { AUDIT_KIND_KEYS, type AuditKind } from '~/content/audit';
import { EMAIL_PATTERN } from '~/lib/patterns';
import { z } from '~/lib/zod';
import { isDay, PAGE_REFUSED } from './query';
import type { ConsoleRole } from './roles';
import { route } from './route';

export type AuditEntry = {
  id: number;
  at: string;
  /** The address of who did it, or 'system'. */
  actor: string;
  /** Their name: as configured, the address's local part, or the site's own. */
  who: string;
  /** The action's code (`booking.confirm`) and its kind, if it has one. */
  action: string;
  kind: AuditKind | null;
  /** A record id or a booking reference; never a visitor's address or words. */
  target: string | null;
  /** "Ada confirmed booking BK-K7WC6H". */
  sentence: string;
};

/** Someone the person filter can name: the console's people (a helper: only themself). */
export type AuditPerson = { email: string; name: string; role: ConsoleRole };

export type AuditPage = { items: AuditEntry[]; next: string | null; people: AuditPerson[] };

export const AUDIT_OWN_ONLY = 'A helper may read only their own entries of the audit log.';

const refused = (what: string) => ({ error: `The ${what} filter is not valid.` });

/** A query string value trimmed; missing, empty, or given twice (an array): none. */
const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** A UK date `YYYY-MM-DD` PostgreSQL can store. */
const date = (what: string) =>
  z.string().refine((value) => {
    const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    return Boolean(parts) && isDay(Number(parts![1]), Number(parts![2]), Number(parts![3]));
  }, refused(what));

export const auditQuery = z
  .object({
    /** Who: an address of the console's people, or 'system' (the site itself). */
    person: z.preprocess(
      text,
      z
        .string()
        .max(254, refused('person'))
        .toLowerCase()
        .refine((v) => v === 'system' || EMAIL_PATTERN.test(v), refused('person'))
        .optional(),
    ),
    kind: z.preprocess(text, z.enum(AUDIT_KIND_KEYS, refused('kind')).optional()),
    from: z.preprocess(text, date('from date').optional()),
    to: z.preprocess(text, date('to date').optional()),
    /** `next` of the previous page: the id of its last entry. */
    after: z.preprocess(
      text,
      z
        .string()
        .regex(/^\d{1,15}$/, { error: PAGE_REFUSED })
        .transform(Number)
        .optional(),
    ),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    error: 'The from date is after the to date.',
  });
export type AuditQuery = z.output<typeof auditQuery>;

export const auditRoutes = {
  page: route<AuditPage>()({
    method: 'GET',
    path: '/audit',
    query: auditQuery,
    // A helper reads their own entries only (the area narrows it).
    role: 'helper',
  }),
};

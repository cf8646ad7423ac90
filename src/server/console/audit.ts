/**
 * The audit log's area: its entries a page at a time, each in words ("Ada confirmed booking
 * BK-K7WC6H", src/content/audit.ts), filtered by person, kind and UK dates. A helper reads only
 * their own entries (decision 032). The log itself, and `audit`, are the kit's
 * (src/server/kit/audit.ts).
 */
import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, AnyPgTable } from 'drizzle-orm/pg-core';
import { AUDIT_OWN_ONLY, auditRoutes, type AuditPage, type AuditQuery } from '~/contract/audit';
import {
  AUDIT_KINDS,
  auditSentence,
  kindOfAction,
  SYSTEM_NAME,
  targetKindOf,
  VISITOR_NAME,
  type AuditTargetKind,
} from '~/content/audit';
import { consoleUserOf, nameOfAddress, type Config } from '../kit/config';
import type { Queryable } from '../kit/db/client';
import { pageOf } from '../kit/db/keyset';
import { auditLog } from '../kit/audit';
import { UUID_PATTERN } from '~/lib/patterns';
import { submissions } from '../kit/db/schema';
import type { ConsoleArea, OwnerIdentity } from '../kit/http/owner-routes';
import { Refusal } from '../kit/http/request-checks';

const PAGE = 50;

/** UK midnight at the start of `date` (YYYY-MM-DD). */
const ukStartOf = (date: string) => sql`(${date}::date)::timestamp at time zone 'Europe/London'`;

function conditions(query: AuditQuery): SQL[] {
  const where: SQL[] = [];
  if (query.person) where.push(eq(auditLog.actor, query.person));
  if (query.kind) {
    where.push(inArray(sql`split_part(${auditLog.action}, '.', 1)`, [...AUDIT_KINDS[query.kind].areas]));
  }
  if (query.from) where.push(sql`${auditLog.at} >= ${ukStartOf(query.from)}`);
  if (query.to) where.push(sql`${auditLog.at} < ${ukStartOf(query.to)} + interval '1 day'`);
  if (query.after !== undefined) where.push(lt(auditLog.id, query.after));
  return where;
}

/** The name of who did an entry: as configured, else the address's local part; the site; a visitor. */
export function nameOfActor(config: Pick<Config, 'consoleUsers'>, actor: string): string {
  if (actor === 'system') return SYSTEM_NAME;
  if (actor === 'visitor') return VISITOR_NAME;
  return consoleUserOf(config, actor)?.name ?? nameOfAddress(actor);
}

/**
 * The names of records of one kind, by id: what the log's sentences call them. Only the ids
 * found are in the map (a record deleted or erased since is named by its id).
 */
export type AuditNamer = (q: Queryable, ids: readonly string[]) => Promise<Map<string, string>>;
export type AuditNamers = Partial<Record<AuditTargetKind, AuditNamer>>;

/** The rows that have a name, as a map by id. */
const named = (rows: readonly { id: string; name: string | null }[]) =>
  new Map(rows.flatMap((row) => (row.name ? [[row.id, row.name] as const] : [])));

/** A namer reading one text column of a table keyed by a uuid (an article's title...). */
export function namesFrom(table: AnyPgTable, id: AnyPgColumn, name: AnyPgColumn): AuditNamer {
  return async (q, ids) => {
    const rows = (await q
      .select({ id, name })
      .from(table)
      .where(inArray(id, [...ids]))) as { id: string; name: string | null }[];
    return named(rows);
  };
}

/** A lead by the name they typed (first and last), never by their address or words. */
export const leadNames: AuditNamer = async (q, ids) => {
  const rows = await q
    .select({
      id: submissions.id,
      name: sql<string>`trim(coalesce(${submissions.fields}->>'firstName', '') || ' ' || coalesce(${submissions.fields}->>'lastName', ''))`,
    })
    .from(submissions)
    .where(inArray(submissions.id, [...ids]));
  return named(rows);
};

/** The names of the page's targets, by kind then id: one query a kind. */
async function targetNames(
  db: Queryable,
  namers: AuditNamers,
  rows: readonly { action: string; target: string | null }[],
): Promise<Map<string, string>> {
  const wanted = new Map<AuditTargetKind, Set<string>>();
  for (const row of rows) {
    const kind = targetKindOf(row.action);
    if (!kind || !namers[kind] || !row.target || !UUID_PATTERN.test(row.target)) continue;
    wanted.set(kind, (wanted.get(kind) ?? new Set()).add(row.target));
  }
  const names = new Map<string, string>();
  for (const [kind, ids] of wanted) {
    for (const [id, name] of await namers[kind]!(db, [...ids])) names.set(`${kind}:${id}`, name);
  }
  return names;
}

/** Newest first, 50 a page; `after` is the id of the last entry of the previous page. */
export async function auditPage(
  db: Queryable,
  config: Pick<Config, 'consoleUsers'>,
  query: AuditQuery,
  reader?: Pick<OwnerIdentity, 'email' | 'role'>,
  namers: AuditNamers = {},
): Promise<AuditPage> {
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actor: auditLog.actor,
      action: auditLog.action,
      target: auditLog.target,
      detail: auditLog.detail,
    })
    .from(auditLog)
    .where(and(...conditions(query)))
    .orderBy(desc(auditLog.id))
    .limit(PAGE + 1);
  const { items, next } = pageOf(rows, PAGE, (last) => String(last.id));
  const names = await targetNames(db, namers, items);
  const people = config.consoleUsers.filter(
    (user) => reader?.role !== 'helper' || user.email === reader.email,
  );
  return {
    items: items.map(({ detail, ...row }) => {
      const who = nameOfActor(config, row.actor);
      return {
        ...row,
        at: row.at.toISOString(),
        who,
        kind: kindOfAction(row.action) ?? null,
        sentence: auditSentence(
          who,
          row.action,
          row.target,
          detail as Record<string, unknown> | null,
          names.get(`${targetKindOf(row.action)}:${row.target}`),
        ),
      };
    }),
    next,
    people: people.map(({ email, name, role }) => ({ email, name, role })),
  };
}

/**
 * The log's route. `namers` read the names of the records it speaks of (leads, and the features'
 * articles, masterclasses and issues), given by the composition root.
 */
export const auditArea =
  (namers: AuditNamers): ConsoleArea =>
  (routes, { config, db }) => {
    routes.on(auditRoutes.page, ({ query, owner }) => {
      if (owner.role === 'helper') {
        // A helper's own entries only: naming someone else is refused, naming nobody is themself.
        if (query.person && query.person !== owner.email) throw new Refusal(403, { error: AUDIT_OWN_ONLY });
        return auditPage(db, config, { ...query, person: owner.email }, owner, namers);
      }
      return auditPage(db, config, query, owner, namers);
    });
  };

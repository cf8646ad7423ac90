/**
 * The audit log's area: its entries a page at a time, each in words ("Ada confirmed booking
 * BK-K7WC6H", src/content/audit.ts), filtered by person, kind and UK dates. A helper reads only
 * their own entries (decision 032). The log itself, and `audit`, are the kit's
 * (src/server/kit/audit.ts).
 */
import { and, desc, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { AUDIT_OWN_ONLY, auditRoutes, type AuditPage, type AuditQuery } from '~/contract/audit';
import { AUDIT_KINDS, auditSentence, kindOfAction, SYSTEM_NAME, VISITOR_NAME } from '~/content/audit';
import { consoleUserOf, nameOfAddress, type Config } from '../kit/config';
import type { Queryable } from '../kit/db/client';
import { pageOf } from '../kit/db/keyset';
import { auditLog } from '../kit/audit';
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

/** Newest first, 50 a page; `after` is the id of the last entry of the previous page. */
export async function auditPage(
  db: Queryable,
  config: Pick<Config, 'consoleUsers'>,
  query: AuditQuery,
  reader?: Pick<OwnerIdentity, 'email' | 'role'>,
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
        sentence: auditSentence(who, row.action, row.target, detail as Record<string, unknown> | null),
      };
    }),
    next,
    people: people.map(({ email, name, role }) => ({ email, name, role })),
  };
}

export const auditArea: ConsoleArea = (routes, { config, db }) => {
  routes.on(auditRoutes.page, ({ query, owner }) => {
    if (owner.role === 'helper') {
      // A helper's own entries only: naming someone else is refused, naming nobody is themself.
      if (query.person && query.person !== owner.email) throw new Refusal(403, { error: AUDIT_OWN_ONLY });
      return auditPage(db, config, { ...query, person: owner.email }, owner);
    }
    return auditPage(db, config, query, owner);
  });
};

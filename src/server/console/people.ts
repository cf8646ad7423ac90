/**
 * One person, found by e-mail address in every kind of row the registry of personal data lists
 * (src/server/root/personal-data.ts) and in every .eml file of their e-mails: what is held (the
 * People screen, and the subject access file), and erasure. This module knows no feature's tables:
 * each declaration finds, shows, exports and erases its own rows (src/server/kit/personal-data.ts).
 *
 * Erasing deletes every row in one transaction (a submission's rows go with it by the foreign
 * keys' cascade), runs what erasing causes (a freed masterclass place is given on), and keeps the
 * address only as a keyed hash on the suppression list, so the outbox never writes to it again;
 * then the .eml files of the deleted e-mails are removed. The console's own addresses (OWNER_EMAIL,
 * OWNER_EMAILS and every other address that may sign in) are never erased nor suppressed: the
 * refusal is a 409 with a sentence (decision 030).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { peopleCopy } from '~/content/console';
import { peopleRoutes, type ErasureAnswer, type PersonView } from '~/contract/people';
import type { Db, Queryable, Tx } from '../kit/db/client';
import { submissions, suppressions } from '../kit/db/schema';
import { isConsoleAddress, suppressionHash } from '../kit/mail/outbox';
import { emlFileName } from '../kit/mail/transport';
import { audit } from '../kit/audit';
import { Refusal } from '../kit/http/request-checks';
import type { ConsoleArea } from '../kit/http/owner-routes';
import type { ErasureContext, Person, PersonalDataRegistry } from '../kit/personal-data';

/**
 * The registry, where the .eml files are, and the console's own addresses (lower-cased), which
 * can be neither erased nor suppressed: what every function here needs.
 */
export type PeopleContext = {
  registry: PersonalDataRegistry;
  secret: string;
  mailDir: string;
  consoleAddresses: readonly string[];
};

/** The refusal to erase one of the console's own addresses. */
export function consoleAddressRefusal(): Refusal {
  return new Refusal(409, { error: peopleCopy.consoleAddress });
}

export type PersonRecords = {
  email: string;
  suppressed: boolean;
  /** Each declaration's rows, by its key, in the registry's order. */
  rows: Map<string, unknown[]>;
  /** The .eml files of their e-mails still in DATA_DIR/mail: name and full text. */
  emlFiles: { name: string; content: string }[];
};

async function personOf(q: Queryable, email: string): Promise<Person> {
  const ids = await q.select({ id: submissions.id }).from(submissions).where(eq(submissions.emailKey, email));
  return { email, submissionIds: ids.map((s) => s.id) };
}

/**
 * Every declaration's rows, one after another: inside erasure's transaction they share one
 * connection, which runs one statement at a time (the Postgres client deprecates queueing them).
 */
async function findRows(q: Queryable, registry: PersonalDataRegistry, person: Person) {
  const rows = new Map<string, unknown[]>();
  for (const data of registry) if (data.rows) rows.set(data.key, await data.rows.find(q, person));
  return rows;
}

/** The .eml file names of the e-mails found (the kit's `emails` declaration). */
function emlNames(rows: Map<string, unknown[]>): string[] {
  const emails = (rows.get('emails') ?? []) as { id: number; kind: string }[];
  return emails.map((e) => emlFileName(Number(e.id), e.kind));
}

/** `email`: as the contract's `personAddress` gives it (trimmed, lower-cased). */
export async function findPerson(db: Db, ctx: PeopleContext, email: string): Promise<PersonRecords> {
  const rows = await findRows(db, ctx.registry, await personOf(db, email));
  const [suppressed] = await db
    .select({ hash: suppressions.hash })
    .from(suppressions)
    .where(eq(suppressions.hash, suppressionHash(ctx.secret, email)));
  const emlFiles: PersonRecords['emlFiles'] = [];
  for (const name of emlNames(rows)) {
    try {
      emlFiles.push({ name, content: await readFile(join(ctx.mailDir, name), 'utf8') });
    } catch {
      // Sent through a relay, or its file already removed by retention.
    }
  }
  return { email, suppressed: Boolean(suppressed), rows, emlFiles };
}

/**
 * Deletes everything held about the person in one transaction and puts the address's keyed hash
 * on the suppression list; then removes the .eml files of the deleted e-mails. `write` runs last
 * in the same transaction (the owner's audit row). Answers counts only.
 */
export async function erasePerson(
  db: Db,
  ctx: PeopleContext,
  email: string,
  erasure: ErasureContext,
  write?: (tx: Tx, counts: Record<string, number>) => Promise<void>,
): Promise<ErasureAnswer> {
  const { registry } = ctx;
  // Suppressed, an owner's address would lose every lead notification and sign-in e-mail.
  if (isConsoleAddress(ctx.consoleAddresses, email)) throw consoleAddressRefusal();
  const { counts, files } = await db.transaction(async (tx) => {
    const person = await personOf(tx, email);
    for (const data of registry) await data.rows?.lock?.(tx, person);
    const rows = await findRows(tx, registry, person);
    const counts: Record<string, number> = {};
    for (const data of registry) {
      if (!data.rows) continue;
      const found = rows.get(data.key) ?? [];
      await data.rows.erase?.(tx, person, found);
      counts[data.key] = found.length;
    }
    for (const data of registry) {
      const caused = await data.rows?.afterErase?.(tx, rows.get(data.key) ?? [], erasure);
      for (const [name, n] of Object.entries(caused ?? {})) counts[name] = (counts[name] ?? 0) + n;
    }
    await tx
      .insert(suppressions)
      .values({ hash: suppressionHash(ctx.secret, email), reason: 'erased' })
      .onConflictDoUpdate({ target: suppressions.hash, set: { reason: 'erased' } });
    await write?.(tx, counts);
    return { counts, files: emlNames(rows) };
  });
  let removed = 0;
  for (const name of files) {
    try {
      await rm(join(ctx.mailDir, name));
      removed += 1;
    } catch {
      // No such file: sent through a relay.
    }
  }
  counts.emlFiles = removed;
  const erased = registry
    .filter((data) => data.rows && (counts[data.key] ?? 0) > 0)
    .map((data) => ({ noun: data.noun, count: counts[data.key]! }));
  return { ok: true, counts, erased: [...erased, { noun: peopleCopy.emlFilesNoun, count: removed }] };
}

/** What the People screen lists: every declaration's rows as one section, then the .eml files. */
export function personView(ctx: PeopleContext, person: PersonRecords): PersonView {
  const sections: PersonView['sections'] = [];
  let total = 0;
  for (const data of ctx.registry) {
    if (!data.rows) continue;
    const rows = person.rows.get(data.key) ?? [];
    total += rows.length;
    sections.push({ key: data.key, title: data.title, items: rows.map((row) => data.rows!.show(row)) });
  }
  sections.push({
    key: 'emlFiles',
    title: peopleCopy.emlFiles,
    items: person.emlFiles.map((f) => ({ text: f.name, code: true })),
  });
  return {
    email: person.email,
    suppressed: person.suppressed,
    total,
    sections,
    ...(isConsoleAddress(ctx.consoleAddresses, person.email)
      ? { cannotErase: peopleCopy.consoleAddress }
      : {}),
  };
}

/** The subject access file: every row that names the person, and their e-mails as sent. */
export function subjectAccessJson(ctx: PeopleContext, person: PersonRecords, now = new Date()): string {
  const held: Record<string, unknown> = {};
  for (const data of ctx.registry) {
    if (!data.rows) continue;
    const rows = person.rows.get(data.key) ?? [];
    held[data.exportAs ?? data.key] = data.rows.export ? rows.map((r) => data.rows!.export!(r)) : rows;
  }
  return JSON.stringify(
    {
      about: person.email,
      madeAt: now.toISOString(),
      suppressed: person.suppressed,
      ...held,
      emlFiles: person.emlFiles,
    },
    null,
    2,
  );
}

/** The People area: look a person up, download what is held, erase it. */
export const peopleArea =
  (registry: PersonalDataRegistry): ConsoleArea =>
  (routes, { config, db, links, clock, wakeOutbox }) => {
    const ctx: PeopleContext = {
      registry,
      secret: config.appSecret,
      mailDir: join(config.dataDir, 'mail'),
      consoleAddresses: config.ownerEmails,
    };
    routes.on(peopleRoutes.find, async ({ query }) =>
      personView(ctx, await findPerson(db, ctx, query.email)),
    );
    routes.on(peopleRoutes.export, async ({ query, owner }) => {
      const person = await findPerson(db, ctx, query.email);
      await audit(db, owner.email, 'person.export', undefined, {
        submissions: person.rows.get('submissions')?.length ?? 0,
      });
      return {
        name: `subject-access-${clock().toISOString().slice(0, 10)}.json`,
        type: 'application/json; charset=utf-8',
        body: subjectAccessJson(ctx, person, clock()),
      };
    });
    routes.on(peopleRoutes.erase, async ({ body, owner, request }) => {
      const answer = await erasePerson(db, ctx, body.email, { config, links, now: clock() }, (tx, counts) =>
        audit(tx, owner.email, 'person.erase', undefined, counts),
      );
      if ((answer.counts.promoted ?? 0) > 0) wakeOutbox();
      request.log.info({ ...answer.counts }, 'person erased');
      return answer;
    });
  };

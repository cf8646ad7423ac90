/**
 * The business's own details (./tables.server.ts): read for the console, saved by the owner (an
 * audit row and the publication counter raised in the save's transaction, so every instance renders
 * the public pages again: decision 047), read as the public site shows them (`publishedBusiness`),
 * as the e-mails' footers name the business (`mailIdentity`), and as the overview warns while they
 * are not set (`businessWarnings`).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { BusinessDetails } from '~/content/business';
import { businessWarningWords } from '~/content/business-console';
import { audit } from '~/server/kit/audit';
import type { Db, Queryable } from '~/server/kit/db/client';
import { publicationVersion, raisePublicationVersion } from '~/server/kit/publication';
import { photoPath, type BusinessAnswer, type BusinessFields } from './business-console-contract';
import { cleanUpload, type CleanUpload } from './photo.server';
import { businessDetails, businessPhoto } from './tables.server';

/** The one row of each table. */
const ROW = 1;

async function photoRow(db: Queryable) {
  const [row] = await db
    .select({
      type: businessPhoto.type,
      width: businessPhoto.width,
      height: businessPhoto.height,
      version: businessPhoto.version,
    })
    .from(businessPhoto)
    .where(eq(businessPhoto.id, ROW));
  return row ?? null;
}

/** What the console's page shows. */
export async function businessAnswer(db: Queryable): Promise<BusinessAnswer> {
  const [row] = await db.select().from(businessDetails).where(eq(businessDetails.id, ROW));
  const photo = await photoRow(db);
  return {
    details: row
      ? {
          name: row.name,
          email: row.email,
          phone: row.phone,
          address: row.address,
          companyNumber: row.companyNumber,
          founderName: row.founderName,
          founderBio: row.founderBio,
          testimonials: row.testimonials,
        }
      : null,
    updatedAt: row ? row.updatedAt.toISOString() : null,
    updatedBy: row ? row.updatedBy : null,
    photo: photo ? { path: photoPath(photo.version, photo.type), ...photo } : null,
  };
}

/** A save made from details older than those stored (another tab or owner saved since). */
export class StaleBusinessSave extends Error {}

/**
 * Saves the details (audited, the site's pages rendered again on every instance), if they are
 * still the version `basedOn` names (their `updatedAt` as the console read it; null before the
 * first save); otherwise throws StaleBusinessSave and changes nothing.
 */
export async function saveBusiness(
  db: Db,
  { basedOn, ...fields }: BusinessFields & { basedOn: string | null },
  actor: string,
): Promise<BusinessAnswer> {
  await db.transaction(async (tx) => {
    const values = { ...fields, updatedBy: actor, updatedAt: sql`now()` };
    const [before] = await tx
      .select({ id: businessDetails.id, updatedAt: businessDetails.updatedAt })
      .from(businessDetails)
      .where(eq(businessDetails.id, ROW))
      .for('update');
    // Compared as the console was given it: to the millisecond.
    if ((before ? before.updatedAt.toISOString() : null) !== basedOn) throw new StaleBusinessSave();
    await tx
      .insert(businessDetails)
      .values({ id: ROW, ...values })
      .onConflictDoUpdate({ target: businessDetails.id, set: values });
    await audit(tx, actor, before ? 'business.save' : 'business.set', undefined, {
      testimonials: fields.testimonials.length,
      shown: fields.testimonials.filter(shownOnSite).length,
    });
    await raisePublicationVersion(tx);
  });
  return businessAnswer(db);
}

/**
 * Stores the founder's photo, checked by its bytes (an ImageRefusal says why not); `clean` does the
 * checking and writing (the composition root runs it in a process of its own).
 */
export async function saveFounderPhoto(
  db: Db,
  upload: Uint8Array,
  actor: string,
  clean: CleanUpload = cleanUpload,
): Promise<BusinessAnswer> {
  const { bytes, ...facts } = await clean(upload);
  await db.transaction(async (tx) => {
    // The photo's version (its address) comes from the publication counter, which never goes
    // back: a photo uploaded after a removal never takes the address a browser cached for a year.
    await raisePublicationVersion(tx);
    const counter = await publicationVersion(tx);
    await tx
      .insert(businessPhoto)
      .values({ id: ROW, bytes, ...facts, version: counter })
      .onConflictDoUpdate({
        target: businessPhoto.id,
        set: {
          bytes,
          ...facts,
          version: sql`greatest(${businessPhoto.version} + 1, ${counter})`,
          updatedAt: sql`now()`,
        },
      });
    await audit(tx, actor, 'business.photo', undefined, {
      type: facts.type,
      width: facts.width,
      height: facts.height,
      bytes: bytes.length,
    });
  });
  return businessAnswer(db);
}

export async function removeFounderPhoto(db: Db, actor: string): Promise<BusinessAnswer> {
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(businessPhoto)
      .where(eq(businessPhoto.id, ROW))
      .returning({ id: businessPhoto.id });
    if (removed.length === 0) return;
    await audit(tx, actor, 'business.photo-remove');
    await raisePublicationVersion(tx);
  });
  return businessAnswer(db);
}

/** The founder's photo as the site serves it, when `version` is the current one. */
export async function founderPhoto(
  db: Queryable,
  version: number,
): Promise<{ type: string; bytes: Uint8Array } | null> {
  // The version in the query: an address that names no photo reads no bytes.
  const [row] = await db
    .select({ type: businessPhoto.type, bytes: businessPhoto.bytes })
    .from(businessPhoto)
    .where(and(eq(businessPhoto.id, ROW), eq(businessPhoto.version, version)));
  return row ? { type: row.type, bytes: row.bytes } : null;
}

/** A testimonial the site shows: the owner marked it a real client's words, with the permission dated. */
const shownOnSite = (t: { real: boolean; permissionOn: string }) => t.real && t.permissionOn !== '';

/** The details as the public site shows them; null until the owner sets them. */
export async function publishedBusiness(db: Queryable): Promise<BusinessDetails | null> {
  const { details, photo } = await businessAnswer(db);
  if (!details) return null;
  return {
    name: details.name,
    email: details.email,
    phone: details.phone,
    address: details.address,
    companyNumber: details.companyNumber,
    founder: { name: details.founderName, bio: details.founderBio, photo: photo?.path ?? null },
    testimonials: details.testimonials
      .filter(shownOnSite)
      .map(({ quote, author, role, city }) => ({ quote, author, role, city })),
  };
}

/** Who the e-mails' footers name: the business's name and postal address, read at send time. */
export async function mailIdentity(db: Queryable): Promise<{ name: string; address: string[] } | null> {
  const [row] = await db
    .select({ name: businessDetails.name, address: businessDetails.address })
    .from(businessDetails)
    .where(eq(businessDetails.id, ROW));
  return row ?? null;
}

/** The newsletter's footer address: the business's name and office address, one line each; null until set. */
export async function businessPostalAddress(db: Queryable): Promise<string[] | null> {
  const identity = await mailIdentity(db);
  return identity && [identity.name, ...identity.address];
}

/** The contact e-mail of Business details: where a reply to the business goes; null until set. */
export async function businessContactEmail(db: Queryable): Promise<string | null> {
  const [row] = await db
    .select({ email: businessDetails.email })
    .from(businessDetails)
    .where(eq(businessDetails.id, ROW));
  return row?.email.trim() ? row.email.trim() : null;
}

/** The overview's warning while the details are not set. */
export async function businessWarnings(db: Queryable): Promise<string[]> {
  const [row] = await db
    .select({ id: businessDetails.id })
    .from(businessDetails)
    .where(eq(businessDetails.id, ROW));
  return row ? [] : [businessWarningWords.notSet];
}

/**
 * The business's own details (one row, id 1), set by the owner in the console, and the founder's
 * photo (one row, id 1; its bytes checked by their magic bytes and dimensions before they are
 * stored: decision 048).
 */
import { customType, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** A testimonial as stored: the words, who gave them, and what the owner recorded of them. */
export type StoredTestimonial = {
  quote: string;
  author: string;
  role: string;
  city: string;
  /** YYYY-MM-DD: when the client gave these words. */
  givenOn: string;
  /** The owner says these are a real client's words, unedited in meaning. */
  real: boolean;
  /** YYYY-MM-DD: when the client agreed to their words being shown; empty when not. */
  permissionOn: string;
};

export const businessDetails = pgTable('business_details', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  phone: text('phone').notNull().default(''),
  /** One line each. */
  address: jsonb('address').$type<string[]>().notNull(),
  companyNumber: text('company_number').notNull().default(''),
  founderName: text('founder_name').notNull().default(''),
  founderBio: text('founder_bio').notNull().default(''),
  testimonials: jsonb('testimonials').$type<StoredTestimonial[]>().notNull(),
  updatedBy: text('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const businessPhoto = pgTable('business_photo', {
  id: integer('id').primaryKey(),
  /** image/jpeg | image/png | image/webp, read from the bytes themselves. */
  type: text('type').notNull(),
  bytes: bytea('bytes').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  /** Raised by each upload: the photo's address names it, so a new one is never an old cached copy. */
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The business's own details in the owner's console, as the browser and the server
 * (business-console.server.ts) agree on them: the company's name, contact e-mail, phone, office
 * address, company number, the founder's name, photo and short biography, and the testimonials
 * (each a real client's words, with the date given and the client's permission recorded, as the
 * UK's rules on reviews expect). One schema, read by the console's form and by the server alike.
 */
import { route } from '~/contract/route';
import { isIsoDate } from '~/lib/uk-dates';
import { base64Length, imageData, type ImageLimits } from '~/lib/image-upload';
import { email, optionalText, text } from '~/lib/validation';
import { z } from '~/lib/zod';

export const BUSINESS_LIMITS = {
  name: 120,
  email: 100,
  phone: 30,
  addressLine: 100,
  addressLines: 6,
  companyNumber: 8,
  founderName: 100,
  founderBio: 2_000,
  testimonials: 12,
  quote: 600,
  author: 80,
  role: 80,
  city: 60,
} as const;

/**
 * The founder's photo: JPEG, PNG or WebP, read from the file's own bytes (decision 048), checked by
 * the one checker of uploaded images (src/lib/image-upload.ts).
 */
export const PHOTO_LIMITS = {
  bytes: 2 * 1024 * 1024,
  maxSide: 4000,
  minWidth: 200,
  minHeight: 200,
} as const satisfies ImageLimits;

const DATE_MESSAGE = 'Please give the date as YYYY-MM-DD, as 2025-06-08.';
const isoDate = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(10, DATE_MESSAGE)
    .refine((value) => isIsoDate(value), DATE_MESSAGE);

/** A UK phone number as people write it: digits, spaces, a leading +, brackets and hyphens. */
const PHONE = /^\+?[\d ()-]{7,}$/;
/** Companies House: eight characters, digits or two letters then six digits (SC123456). */
const COMPANY_NUMBER = /^(?:\d{8}|[A-Z]{2}\d{6})$/;

export const TestimonialSchema = z
  .object({
    quote: text({
      required: 'Please write the client’s words.',
      max: BUSINESS_LIMITS.quote,
      tooLong: `The words can be at most ${BUSINESS_LIMITS.quote} characters.`,
      multiline: true,
    }),
    author: text({
      required: 'Please give the client’s name.',
      max: BUSINESS_LIMITS.author,
      tooLong: `The name can be at most ${BUSINESS_LIMITS.author} characters.`,
    }),
    role: optionalText({
      max: BUSINESS_LIMITS.role,
      tooLong: `The role can be at most ${BUSINESS_LIMITS.role} characters.`,
    }),
    city: optionalText({
      max: BUSINESS_LIMITS.city,
      tooLong: `The city can be at most ${BUSINESS_LIMITS.city} characters.`,
    }),
    givenOn: isoDate('Please give the date the client gave these words.'),
    real: z.boolean({ error: 'Please say whether these are a real client’s words.' }),
    /** YYYY-MM-DD, or empty while the client has not agreed. */
    permissionOn: z
      .string({ error: DATE_MESSAGE })
      .trim()
      .max(10, DATE_MESSAGE)
      .refine((value) => value === '' || isIsoDate(value), DATE_MESSAGE)
      .default(''),
  })
  .refine((t) => t.permissionOn === '' || t.permissionOn >= t.givenOn, {
    message: 'The permission cannot be dated before the words were given.',
    path: ['permissionOn'],
  });
export type TestimonialInput = z.input<typeof TestimonialSchema>;

/** What the owner types; the console's form checks the same schema. */
export const BusinessInputSchema = z.object({
  name: text({
    required: 'Please enter the business’s name.',
    max: BUSINESS_LIMITS.name,
    tooLong: `The name can be at most ${BUSINESS_LIMITS.name} characters.`,
  }),
  email: email({ required: 'Please enter the contact e-mail address.', max: BUSINESS_LIMITS.email }),
  phone: optionalText({ max: BUSINESS_LIMITS.phone, tooLong: 'Please give the phone number alone.' }).refine(
    (value) => value === '' || PHONE.test(value),
    'Please give a phone number of digits, as 020 7946 0321 or +44 20 7946 0321, or leave it empty.',
  ),
  address: z
    .array(
      text({
        required: 'Please leave no empty line in the address.',
        max: BUSINESS_LIMITS.addressLine,
        tooLong: `An address line can be at most ${BUSINESS_LIMITS.addressLine} characters.`,
      }),
      { error: 'Please give the office address.' },
    )
    .min(2, 'Please give the office address, one line each (at least the street and the postcode).')
    .max(BUSINESS_LIMITS.addressLines, `The address can be at most ${BUSINESS_LIMITS.addressLines} lines.`),
  companyNumber: optionalText({
    max: BUSINESS_LIMITS.companyNumber,
    tooLong: 'A company number is eight characters.',
  })
    .transform((value) => value.toUpperCase())
    .refine(
      (value) => value === '' || COMPANY_NUMBER.test(value),
      'A company number is eight characters, as 12345678 or SC123456, or leave it empty.',
    ),
  founderName: optionalText({
    max: BUSINESS_LIMITS.founderName,
    tooLong: `The name can be at most ${BUSINESS_LIMITS.founderName} characters.`,
  }),
  founderBio: optionalText({
    max: BUSINESS_LIMITS.founderBio,
    tooLong: `The biography can be at most ${BUSINESS_LIMITS.founderBio.toLocaleString('en-GB')} characters.`,
    multiline: true,
  }),
  testimonials: z
    .array(TestimonialSchema, { error: 'The testimonials are not a list.' })
    .max(BUSINESS_LIMITS.testimonials, `At most ${BUSINESS_LIMITS.testimonials} testimonials.`)
    .default([]),
});
export type BusinessInput = z.input<typeof BusinessInputSchema>;
export type BusinessFields = z.output<typeof BusinessInputSchema>;

/**
 * A save: the fields, and the version of the details the form was filled from (their
 * `updatedAt`, null before the first save). A save made from an older version is refused (409),
 * so that two tabs or two owners never overwrite each other's details silently.
 */
export const BusinessSaveSchema = BusinessInputSchema.extend({
  basedOn: z
    .string({ error: 'The page did not say which version it was saving. Please reload it.' })
    .max(40, 'The page did not say which version it was saving. Please reload it.')
    .nullable(),
});
export type BusinessSave = z.output<typeof BusinessSaveSchema>;

/** The answer to a stale save. */
export const STALE_BUSINESS_SAVE =
  'These details were changed in another tab or window since you opened them, so nothing was saved. Your text is still here: reload the page to see the newer details, then make your changes again.';

export const PhotoUploadSchema = z.object({
  /** The file's bytes, base64. Its type is read from the bytes, never from this request. */
  data: imageData('photo', PHOTO_LIMITS),
});

// --- Answers --------------------------------------------------------------------------------------

export type StoredTestimonialAnswer = z.output<typeof TestimonialSchema>;

/** GET /api/owner/business */
export type BusinessAnswer = {
  /** Null until the owner first saves them. */
  details: (Omit<BusinessFields, 'testimonials'> & { testimonials: StoredTestimonialAnswer[] }) | null;
  updatedAt: string | null;
  updatedBy: string | null;
  photo: { path: string; type: string; width: number; height: number } | null;
};

// --- Routes -------------------------------------------------------------------------------------

/** The business's details are the owner's alone (decision 032). */
export const businessRoutes = {
  view: route<BusinessAnswer>()({ method: 'GET', path: '/business' }),
  /** Refused with 409 when the details changed since `basedOn`. */
  save: route<BusinessAnswer>()({
    method: 'POST',
    path: '/business',
    body: BusinessSaveSchema,
    invalid: 'Please correct the highlighted fields.',
    bodyLimit: 128 * 1024,
  }),
  /** JPEG, PNG or WebP, up to 2 MB and 4000 pixels a side (400 with the reason otherwise). */
  photo: route<BusinessAnswer>()({
    method: 'POST',
    path: '/business/photo',
    body: PhotoUploadSchema,
    fieldErrors: false,
    bodyLimit: base64Length(PHOTO_LIMITS.bytes) + 1024,
  }),
  removePhoto: route<BusinessAnswer>()({ method: 'POST', path: '/business/photo/remove' }),
};

/** Where the site serves the founder's photo: its version in the address, so each is cached for good. */
export const PHOTO_PATH_PREFIX = '/media/founder-';
export const photoPath = (version: number, type: string) =>
  `${PHOTO_PATH_PREFIX}${version}.${type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg'}`;

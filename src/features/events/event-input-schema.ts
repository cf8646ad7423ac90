/**
 * What the owner types to create or change a masterclass, and to write to its attendees: one
 * schema each, the console's route reads the body with it (src/features/events/
 * events-console-contract.ts) and the console's event form takes its limits from EVENT_LIMITS.
 * Times are UK wall-clock times, `YYYY-MM-DDTHH:MM` (what `<input type="datetime-local">` gives),
 * parsed into instants in Europe/London. A field's rules are on the field; a rule that reads two
 * fields is a refinement of the whole, its message on the field the form shows it beside.
 */
import { ukWallTimeToInstant } from '~/lib/uk-dates';
import { z } from '~/lib/zod';
import { EVENT_MODES } from './events-api';

/** The longest text of each field, and the range of places. */
export const EVENT_LIMITS = {
  title: 120,
  summary: 600,
  place: 200,
  joinUrl: 500,
  capacity: { min: 1, max: 10_000 },
  subject: 150,
  message: 5000,
} as const;

/** A masterclass lasts at most this long. */
const LONGEST_MS = 24 * 3600_000;

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** A UK wall-clock 'YYYY-MM-DDTHH:MM' as an instant, or undefined when it is not one. */
export function ukInstant(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = LOCAL.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d || h > 23 || mi > 59) return undefined;
  return ukWallTimeToInstant(value.slice(0, 10), value.slice(11, 16));
}

const CONTROL_MESSAGE = 'Please remove line breaks and unusual characters.';
// Control characters are refused; a tab is let through, and line breaks where the text has lines.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const ONE_LINE = /^[^\u0000-\u0008\u000a-\u001f\u007f]*$/;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

/** Anything but a string counts as left empty. */
const typed = (value: unknown) => (typeof value === 'string' ? value : '');

/** Trimmed text of at most `max` characters, required when `required` is its sentence. */
function text(max: number, { required, lines = false }: { required?: string; lines?: boolean } = {}) {
  const trimmed = z.string().trim();
  return z.preprocess(
    typed,
    (required ? trimmed.min(1, required) : trimmed)
      .max(max, `Please keep this under ${max} characters.`)
      .regex(lines ? LINES : ONE_LINE, CONTROL_MESSAGE),
  );
}

/** A UK wall-clock time, as an instant. */
function wallClock(missing: string) {
  return z.unknown().transform((value, ctx) => {
    const at = ukInstant(value);
    if (at) return at;
    ctx.addIssue({ code: 'custom', message: missing });
    return z.NEVER;
  });
}

const OPTIONAL_TIME = 'Please give a valid date and time, or leave it empty.';

/** A UK wall-clock time or nothing: left empty, null. */
const optionalWallClock = z.preprocess(
  typed,
  z.string().transform((value, ctx) => {
    if (!value.trim()) return null;
    const at = ukInstant(value);
    if (at) return at;
    ctx.addIssue({ code: 'custom', message: OPTIONAL_TIME });
    return z.NEVER;
  }),
);

const CAPACITY = `Please give a number of places from ${EVENT_LIMITS.capacity.min} to ${EVENT_LIMITS.capacity.max}.`;

/** A body that is not an object reads as an empty one: each field then says what it needs. */
const record = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (body) => (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}),
    schema,
  );

const fields = record(
  z.object({
    title: text(EVENT_LIMITS.title, { required: 'Please give the event a title.' }),
    summary: text(EVENT_LIMITS.summary, { required: 'Please write a short summary.', lines: true }),
    startsAt: wallClock('Please give the start date and time.'),
    endsAt: wallClock('Please give the end date and time.'),
    mode: z.enum(EVENT_MODES, { error: 'Please choose online or in person.' }),
    /** Required in person (see below). */
    place: text(EVENT_LIMITS.place),
    joinUrl: text(EVENT_LIMITS.joinUrl),
    // A number, or text of one (as a form's field holds it).
    capacity: z.preprocess(
      (value) => (typeof value === 'number' ? value : Number(value)),
      z
        .number({ error: CAPACITY })
        .int(CAPACITY)
        .min(EVENT_LIMITS.capacity.min, CAPACITY)
        .max(EVENT_LIMITS.capacity.max, CAPACITY),
    ),
    registrationOpensAt: optionalWallClock,
    registrationClosesAt: optionalWallClock,
  }),
);

type Fields = z.output<typeof fields>;
type Payload = { issues: readonly { path?: readonly PropertyKey[] }[] };

/**
 * A refinement that runs when the fields it reads were read without a problem (whatever the
 * other fields hold, so that every field's sentence is given at once).
 */
const when =
  (...names: (keyof Fields)[]) =>
  (payload: Payload) =>
    !payload.issues.some((issue) => !issue.path?.length || names.includes(issue.path[0] as keyof Fields));

const isHttps = (url: string) => {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
};

/**
 * A rule that reads two fields (or one against the clock): `broken` says what is wrong, if
 * anything, beside `field`. It runs when the fields it `reads` were read without a problem, and
 * when no rule before it found one on them: of two rules on the same field, the first found is the
 * one given.
 */
type Rule = { reads: (keyof Fields)[]; field: keyof Fields; broken: (event: Fields) => string | undefined };

const RULES: Rule[] = [
  {
    reads: ['startsAt', 'endsAt'],
    field: 'endsAt',
    broken: ({ startsAt, endsAt }) => {
      const length = endsAt.getTime() - startsAt.getTime();
      if (length <= 0) return 'The end must be after the start.';
      if (length > LONGEST_MS) return 'A masterclass lasts at most 24 hours.';
      return undefined;
    },
  },
  {
    reads: ['registrationOpensAt', 'registrationClosesAt'],
    field: 'registrationClosesAt',
    broken: ({ registrationOpensAt: opens, registrationClosesAt: closes }) =>
      opens && closes && opens.getTime() >= closes.getTime()
        ? 'Registration must close after it opens.'
        : undefined,
  },
  {
    reads: ['startsAt', 'registrationClosesAt'],
    field: 'registrationClosesAt',
    broken: ({ startsAt, registrationClosesAt: closes }) =>
      closes && closes.getTime() > startsAt.getTime() ? 'Registration must close by the start.' : undefined,
  },
  {
    reads: ['mode', 'place'],
    field: 'place',
    broken: ({ mode, place }) => (mode === 'in-person' && !place ? 'Please give the address.' : undefined),
  },
  {
    reads: ['mode', 'joinUrl'],
    field: 'joinUrl',
    broken: ({ mode, joinUrl }) =>
      mode === 'online' && joinUrl && !isHttps(joinUrl)
        ? 'Please give a joining link that starts with https://.'
        : undefined,
  },
  // Last: the rules above read a start in the past as a start all the same. The time is the
  // parser's own (the browser's, or the server's when the route reads the body).
  {
    reads: ['startsAt'],
    field: 'startsAt',
    broken: ({ startsAt }) =>
      startsAt.getTime() <= Date.now() ? 'The start must be in the future.' : undefined,
  },
];

/**
 * The event's details, checked. Out: the times as instants, `place` only in person and
 * `joinUrl` only online (null otherwise, and an empty link null), the registration window's
 * ends null when left empty.
 */
export const EventInputSchema = RULES.reduce(
  (schema, { reads, field, broken }) =>
    schema.superRefine(
      (event, ctx) => {
        const message = broken(event);
        if (message) ctx.addIssue({ code: 'custom', path: [field], message });
      },
      { when: when(...reads) },
    ),
  fields,
).transform((event) => ({
  ...event,
  place: event.mode === 'in-person' ? event.place : null,
  joinUrl: event.mode === 'online' && event.joinUrl ? event.joinUrl : null,
}));

/** An event's details as the server stores them. */
export type EventValues = z.output<typeof EventInputSchema>;

/** "Message attendees": a subject and the message, to every registered attendee. */
export const EventMessageSchema = record(
  z.object({
    subject: text(EVENT_LIMITS.subject, { required: 'Please write a subject.' }),
    message: text(EVENT_LIMITS.message, { required: 'Please write the message.', lines: true }),
  }),
);

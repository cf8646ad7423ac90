/**
 * The event form's values: what the owner types (every field a string), the input the server
 * reads from them, the fields' order and labels, and the server's field errors sorted by field.
 */
import { eventsCopy as copy } from '~/content/console';
import type { EventInput, EventSummary } from '../events-console-contract';

export type Values = Omit<EventInput, 'capacity'> & { capacity: string };
export type Errors = Partial<Record<keyof EventInput, string>>;

export const EMPTY: Values = {
  title: '',
  summary: '',
  startsAt: '',
  endsAt: '',
  mode: 'online',
  place: '',
  joinUrl: '',
  capacity: '',
  registrationOpensAt: '',
  registrationClosesAt: '',
};

/** The fields in the order the form shows them (the summary lists errors in this order). */
export const ORDER: (keyof EventInput)[] = [
  'title',
  'summary',
  'startsAt',
  'endsAt',
  'mode',
  'place',
  'joinUrl',
  'capacity',
  'registrationOpensAt',
  'registrationClosesAt',
];

export const LABELS: Record<keyof EventInput, string> = {
  title: copy.titleLabel,
  summary: copy.summaryLabel,
  startsAt: copy.startsAt,
  endsAt: copy.endsAt,
  mode: copy.mode,
  place: copy.place,
  joinUrl: copy.joinUrlLabel,
  capacity: copy.capacityLabel,
  registrationOpensAt: copy.opensLabel,
  registrationClosesAt: copy.closesLabel,
};

/** `YYYY-MM-DDTHH:MM`, as a datetime-local input holds it (a server value may carry seconds). */
export function wallClock(value: string | null | undefined): string {
  return (value ?? '').slice(0, 16);
}

export function valuesOf(event: EventSummary): Values {
  return {
    title: event.title ?? '',
    summary: event.summary ?? '',
    startsAt: wallClock(event.startsAt),
    endsAt: wallClock(event.endsAt),
    mode: event.mode === 'in-person' ? 'in-person' : 'online',
    place: event.place ?? '',
    joinUrl: event.joinUrl ?? '',
    capacity: String(event.capacity ?? ''),
    registrationOpensAt: wallClock(event.registrationOpensAt),
    registrationClosesAt: wallClock(event.registrationClosesAt),
  };
}

export function inputOf(values: Values): EventInput {
  const capacity = values.capacity.trim();
  return {
    ...values,
    title: values.title.trim(),
    summary: values.summary.trim(),
    place: values.place.trim(),
    joinUrl: values.joinUrl.trim(),
    // Left empty, 0: the server answers with its own sentence for the field.
    capacity: capacity === '' ? 0 : Number(capacity),
  };
}

/** The server's field errors, keyed by the form's fields (anything else goes to the summary only). */
export function errorsOf(fieldErrors: Record<string, unknown> | undefined): [Errors, string[]] {
  const errors: Errors = {};
  const others: string[] = [];
  for (const [name, value] of Object.entries(fieldErrors ?? {})) {
    const text = String(Array.isArray(value) ? (value[0] as unknown) : value);
    if ((ORDER as string[]).includes(name)) errors[name as keyof EventInput] = text;
    else others.push(text);
  }
  return [errors, others];
}

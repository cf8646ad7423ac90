/**
 * The audit log in words: each kind of entry a person can filter by, and the sentence of each
 * action ("Ada confirmed booking BK-K7WC6H"). An action is `<area>.<verb>`; its kind is the one
 * that lists its area. An action with no words here is still shown, by its code.
 */

/** The kinds of the audit log's filter: a label and the areas (an action's part before its dot). */
export const AUDIT_KINDS = {
  security: { label: 'Signing in and security', areas: ['sign-in', 'sign-out', 'passkey', 'diary'] },
  leads: { label: 'Leads and spam', areas: ['submission'] },
  bookings: { label: 'Bookings and availability', areas: ['booking', 'availability', 'calendar'] },
  events: { label: 'Masterclasses', areas: ['event'] },
  newsletter: { label: 'The newsletter', areas: ['newsletter'] },
  articles: { label: 'Articles', areas: ['article'] },
  business: { label: 'Business details', areas: ['business'] },
  emails: { label: 'E-mails', areas: ['delivery', 'digest', 'analytics'] },
  exports: { label: 'Exports', areas: ['export'] },
  people: { label: 'People and the suppression list', areas: ['person', 'suppression'] },
  retention: { label: 'Retention', areas: ['retention'] },
  system: { label: 'Backups', areas: ['backup'] },
} as const;

export type AuditKind = keyof typeof AUDIT_KINDS;
export const AUDIT_KIND_KEYS = Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]];

/** The kind of an action, by its area; undefined for an area no kind lists. */
export function kindOfAction(action: string): AuditKind | undefined {
  const area = action.split('.')[0] ?? action;
  return AUDIT_KIND_KEYS.find((kind) => (AUDIT_KINDS[kind].areas as readonly string[]).includes(area));
}

/** The name of the site itself, for what it did on its own (the daily digest). */
export const SYSTEM_NAME = 'The site';
/** Who acted through a link e-mailed to them (their own confirmation lifts a suppression). */
export const VISITOR_NAME = 'A visitor';

type Detail = Readonly<Record<string, unknown>> | null;

/** A record id as a sentence names it: a UUID by its first 8 characters, anything else whole. */
const shortId = (target: string | null) =>
  target && /^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(target) ? target.slice(0, 8) : (target ?? '');

const numberIn = (detail: Detail, key: string): number | undefined =>
  typeof detail?.[key] === 'number' ? detail[key] : undefined;

const counted = (n: number | undefined, one: string, many: string) =>
  n === undefined ? '' : ` (${n} ${n === 1 ? one : many})`;

/** Every number in the detail, added up (an erasure's counts of rows by kind). */
const total = (detail: Detail) =>
  Object.values(detail ?? {}).reduce<number>((sum, v) => sum + (typeof v === 'number' ? v : 0), 0);

/** A time the owner insisted on although it clashed with their diary: ", despite a clash with …". */
const despite = (detail: Detail) =>
  typeof detail?.clash === 'string' ? `, despite a clash with ${detail.clash}` : '';

/** The version an article's save made: " (version 4)". */
const versionOf = (detail: Detail) =>
  typeof detail?.version === 'number' ? ` (version ${detail.version})` : '';

/** Where a lead stands, as a sentence says it. */
const LEAD_STATE_WORDS: Record<string, string> = { new: 'new', replied: 'replied', handled: 'handled' };

const FORM_NAMES: Record<string, string> = {
  contact: 'contact messages',
  booking: 'strategy session requests',
  bitcoin_guide: 'guide downloads',
  newsletter: 'newsletter sign-ups',
  masterclass: 'masterclass registrations',
};

/**
 * What each action did, after the name of who did it. `t` is the record as the sentence names
 * it: by its name when the log can still find one (`namedTarget`), else by its id.
 */
const WORDS: Record<string, (t: string, detail: Detail) => string> = {
  'sign-in.link-sent': () => 'asked for a sign-in link',
  'sign-in.link': () => 'signed in with an e-mail link',
  'sign-in.passkey': () => 'signed in with a passkey',
  'sign-out': () => 'signed out',
  'sign-out.everywhere': (_, d) =>
    `signed out everywhere${counted(numberIn(d, 'ended'), 'session ended', 'sessions ended')}`,
  'passkey.register': () => 'added a passkey',
  'passkey.remove': () => 'removed a passkey',
  'diary.create': () => 'made the address of the calendar subscription',
  'diary.replace': () => 'replaced the address of the calendar subscription (the old one no longer works)',
  'availability.change': (_, d) =>
    `changed the availability offered to visitors${typeof d?.changed === 'string' ? ` (${d.changed})` : ''}`,
  'availability.calendar': (_, d) =>
    d?.removed === true
      ? 'removed the address of their own calendar (its busy times no longer close half-days)'
      : 'set the address of their own calendar, whose busy times close half-days',
  'calendar.failed': () =>
    "could not read the owner's calendar; its last good copy is used and the owner was e-mailed",
  'submission.mark-spam': (t) => `moved submission ${t} to spam`,
  'submission.release': (t, d) =>
    `released submission ${t} from spam${counted(numberIn(d, 'emails'), 'e-mail sent', 'e-mails sent')}`,
  'submission.delete': (t) => `deleted spam submission ${t}`,
  'submission.state': (t, d) =>
    `marked lead ${t} as ${typeof d?.state === 'string' ? (LEAD_STATE_WORDS[d.state] ?? d.state) : 'changed'}`,
  'submission.note': (t) => `kept a note about lead ${t}`,
  'submission.reply': (t) => `replied to lead ${t} by e-mail`,
  'booking.confirm': (t, d) => `confirmed booking ${t}${despite(d)}`,
  'booking.decline': (t) => `declined booking ${t}`,
  'booking.cancel': (t) => `cancelled booking ${t}`,
  'booking.reschedule': (t, d) => `moved booking ${t}${despite(d)}`,
  'booking.keep-time': (t) => `kept booking ${t} at its time (the applicant had asked to move it)`,
  'booking.release-hold': (t) => `released the half-day held by booking request ${t}`,
  'event.create': (t) => `created masterclass ${t}`,
  'event.update': (t, d) =>
    `changed masterclass ${t}${counted(numberIn(d, 'notified'), 'person told', 'people told')}`,
  'event.publish': (t) => `published masterclass ${t}`,
  'event.cancel': (t, d) =>
    `cancelled masterclass ${t}${counted(numberIn(d, 'notified'), 'person told', 'people told')}`,
  'event.message': (t, d) =>
    `e-mailed the people of masterclass ${t}${counted(numberIn(d, 'emails'), 'e-mail', 'e-mails')}`,
  'newsletter.create': (t) => `wrote newsletter issue ${t}`,
  'newsletter.update': (t) => `changed newsletter issue ${t}`,
  'newsletter.test': (t, d) =>
    `sent a test of newsletter issue ${t}${counted(numberIn(d, 'emails'), 'e-mail', 'e-mails')}`,
  'newsletter.send': (t, d) =>
    `sent newsletter issue ${t}${counted(numberIn(d, 'recipients'), 'recipient', 'recipients')}`,
  'newsletter.schedule': (t) => `scheduled newsletter issue ${t}`,
  'newsletter.unschedule': (t) => `unscheduled newsletter issue ${t}`,
  'newsletter.pause': (t) => `paused newsletter issue ${t}`,
  'newsletter.resume': (t) => `resumed newsletter issue ${t}`,
  'newsletter.cancel': (t) => `cancelled newsletter issue ${t}`,
  'newsletter.site': (t) => `put newsletter issue ${t} on the site`,
  'newsletter.site-remove': (t) => `took newsletter issue ${t} off the site`,
  'article.create': (t) => `wrote article ${t}`,
  'business.set': () => 'set the business’s details',
  'business.save': (_, d) =>
    `saved the business’s details${counted(numberIn(d, 'shown'), 'testimonial shown', 'testimonials shown')}`,
  'business.photo': () => 'uploaded the founder’s photo',
  'business.photo-remove': () => 'removed the founder’s photo',
  'article.save': (t, d) => `saved article ${t}${versionOf(d)}`,
  'article.publish': (t, d) =>
    d?.scheduled === true
      ? `published article ${t} at its scheduled time`
      : `published article ${t}`,
  'article.schedule': (t) => `scheduled article ${t} to be published`,
  'article.unschedule': (t) => `unscheduled article ${t} (a draft again)`,
  'article.unpublish': (t) => `unpublished article ${t}`,
  'article.cover': (t) => `set the cover image of article ${t}`,
  'article.cover-alt': (t) => `changed the cover image's description of article ${t}`,
  'article.cover-remove': (t) => `removed the cover image of article ${t}`,
  'article.restore': (t, d) =>
    `restored ${typeof d?.from === 'number' ? `version ${d.from}` : 'an earlier version'} of article ${t}${versionOf(d)}`,
  'delivery.retry': (t) => `sent e-mail ${t} again`,
  'analytics.weekly-report': (_, d) => `switched the weekly report ${d?.on === true ? 'on' : 'off'}`,
  'digest.spam': (_, d) => `sent the daily spam digest${counted(numberIn(d, 'held'), 'held', 'held')}`,
  'export.submissions': (t) =>
    `exported ${FORM_NAMES[t] ? `the ${FORM_NAMES[t]}` : 'the submissions'} as CSV`,
  'export.attendees': (t) => `exported the attendees of masterclass ${t} as CSV`,
  'export.subscribers': () => 'exported the newsletter subscribers as CSV',
  'person.export': () => 'downloaded everything held about one person',
  'person.erase': (_, d) => `erased one person${counted(total(d), 'record', 'records')}`,
  'suppression.lift': () => 'lifted an address from the suppression list',
  'retention.run': (t) => `started retention run ${t}`.trimEnd(),
  'backup.start': () => 'started a backup',
};

/**
 * The kinds of record an entry's target can be named by, when the log reads it: a lead by the
 * name they gave, an article and a masterclass by their titles, a newsletter issue by its subject.
 * Names are read each time the log is shown, never stored in it: an erased person's entries name
 * them by id alone.
 */
export type AuditTargetKind = 'lead' | 'article' | 'masterclass' | 'issue';

const TARGET_OF_AREA: Readonly<Record<string, AuditTargetKind>> = {
  submission: 'lead',
  article: 'article',
  event: 'masterclass',
  newsletter: 'issue',
};
const TARGET_OF_ACTION: Readonly<Record<string, AuditTargetKind>> = { 'export.attendees': 'masterclass' };

/** What kind of record an action's target is, if the log can name it. */
export function targetKindOf(action: string): AuditTargetKind | undefined {
  return TARGET_OF_ACTION[action] ?? TARGET_OF_AREA[action.split('.')[0] ?? action];
}

/** The longest name a sentence quotes whole. */
const NAME_MAX = 80;

/**
 * A record's name as a sentence gives it after its noun: "lead from Ada Lovelace", "article
 * “Custody for advisers”".
 */
function namedTarget(kind: AuditTargetKind | undefined, name: string | undefined): string | undefined {
  const text = name?.replace(/\s+/g, ' ').trim();
  if (!kind || !text) return undefined;
  const short = text.length > NAME_MAX ? `${text.slice(0, NAME_MAX - 1).trimEnd()}…` : text;
  return kind === 'lead' ? `from ${short}` : `“${short}”`;
}

/**
 * "Ada confirmed booking BK-K7WC6H", "Ada published article “Custody for advisers”": who, then
 * what they did, in words; the record by `name` when one was found, else by its id.
 */
export function auditSentence(
  who: string,
  action: string,
  target: string | null,
  detail: Detail,
  name?: string,
): string {
  const words = WORDS[action];
  if (words) {
    const t = namedTarget(targetKindOf(action), name) ?? shortId(target);
    return `${who} ${words(t, detail).trimEnd()}`;
  }
  return `${who}: ${action}${target ? ` (${target})` : ''}`;
}

export const auditCopy = {
  title: 'Audit log',
  intro: 'Every sign-in and every action taken in this console, newest first.',
  helperIntro: 'Your own sign-ins and actions in this console, newest first.',
  at: 'Time',
  what: 'What happened',
  target: 'Record',
  filtersHeading: 'Filter the audit log',
  person: 'Who',
  anyone: 'Anyone',
  system: 'The site itself',
  kind: 'Kind',
  anyKind: 'Any kind',
  from: 'From',
  to: 'To',
  apply: 'Apply',
  clear: 'Clear filters',
  empty: 'Nothing has been recorded yet.',
  emptyFiltered: 'Nothing matches these filters.',
  older: 'Older',
  newest: 'Newest',
  tableLabel: 'Audit log, newest first',
};

/**
 * The masterclass e-mails. To a registered person: the confirmation (or the waitlist notice), a
 * place given from the waitlist, the reminders 24 hours and 1 hour before, an update when the
 * owner changes the event, its cancellation, the person's own cancellation, and the owner's
 * messages. To the owner: each new registration with its details. An e-mail to a visitor's
 * address quotes nothing the visitor typed but a plain first name (greeting.ts); the event's own
 * words are the owner's. The joining link of an online event appears only in e-mails to
 * registered attendees.
 */
import { site } from '~/content/site';
import { greeting, quotableName } from '~/server/kit/mail/greeting';
import type { EmailBlock, EmailContent } from '~/server/kit/mail/layout';
import type { OutgoingEmail } from '~/server/kit/mail/outbox';
import { calendarAttachment, type Attachment } from '~/server/kit/mail/templates';
import { buildEventIcs } from './event-ics';
import { ukWhen } from './event-times';
import type { events } from './tables.server';

export type EventRow = typeof events.$inferSelect;

/** A registration as the e-mails need it: the person's details come from their submission. */
export type Registrant = {
  registrationId: string;
  submissionId: string;
  firstName: string;
  email: string;
  company: string;
  status: 'registered' | 'waitlisted' | 'cancelled';
};

/** What every attendee e-mail needs besides the event and the person. */
export type MailContext = {
  /** Where the organiser of the calendar entry answers (MAIL_FROM). */
  organizer: string;
  publicUrl: string;
  now: Date;
  /** The person's own cancel link. */
  cancelUrl: string;
};

export const EVENT_MAIL_KINDS = {
  registered: 'event.registered',
  waitlisted: 'event.waitlisted',
  promoted: 'event.promoted',
  reminder24h: 'event.reminder-24h',
  reminder1h: 'event.reminder-1h',
  updated: 'event.updated',
  cancelled: 'event.cancelled',
  withdrawn: 'event.withdrawn',
  message: 'event.message',
  owner: 'event.owner',
} as const;

export const REMINDER_KINDS = [EVENT_MAIL_KINDS.reminder24h, EVENT_MAIL_KINDS.reminder1h] as const;

/** One calendar entry per registration: the same UID in the invitation and every later change. */
export function registrationUid(registrationId: string, publicUrl: string): string {
  return `masterclass-${registrationId}@${new URL(publicUrl).hostname}`;
}

/** The public file's UID: one per event. */
export function eventUid(eventId: string, publicUrl: string): string {
  return `masterclass-event-${eventId}@${new URL(publicUrl).hostname}`;
}

export function whereText(event: EventRow): string {
  return event.mode === 'online' ? 'Live online with Q&A' : (event.place ?? 'In person');
}

function when(event: EventRow): string {
  return ukWhen(event.startsAt, event.endsAt);
}

/** The details block; the joining link only for a registered attendee of an online event. */
function detailRows(event: EventRow, withJoinLink: boolean): EmailBlock[] {
  const rows: [string, string][] = [
    ['Masterclass', event.title],
    ['When', when(event)],
    ['Where', whereText(event)],
  ];
  const blocks: EmailBlock[] = [{ type: 'fields', rows }];
  if (withJoinLink && event.mode === 'online' && event.joinUrl) {
    blocks.push(
      { type: 'paragraph', text: 'Join the masterclass with this link when it starts:' },
      { type: 'button', label: 'Join the masterclass', url: event.joinUrl },
      { type: 'small', text: 'The link is for you alone: please do not share it.' },
    );
  }
  return blocks;
}

function cancelBlocks(ctx: MailContext, waitlist = false): EmailBlock[] {
  return [
    {
      type: 'paragraph',
      text: waitlist
        ? 'If you no longer want a place, leave the waitlist here:'
        : 'Cannot come after all? Please free your place for someone on the waitlist:',
    },
    { type: 'button', label: waitlist ? 'Leave the waitlist' : 'Cancel my registration', url: ctx.cancelUrl },
    {
      type: 'small',
      text: 'If you did not register for this masterclass, use the link above and you will not hear from us about it again.',
    },
  ];
}

function calendarFile(
  event: EventRow,
  person: Registrant,
  method: 'REQUEST' | 'CANCEL',
  ctx: MailContext,
  sequence = event.calendarSequence,
): Attachment {
  const name = quotableName(person.firstName) ?? 'Guest';
  const ics = buildEventIcs({
    method,
    uid: registrationUid(person.registrationId, ctx.publicUrl),
    sequence,
    startsAt: event.startsAt,
    endsAt: event.endsAt,
    summary: event.title,
    description:
      event.mode === 'online' && event.joinUrl && method === 'REQUEST'
        ? `${event.summary}\n\nJoin: ${event.joinUrl}`
        : event.summary,
    location:
      event.mode === 'online' ? (method === 'REQUEST' && event.joinUrl) || 'Online' : whereText(event),
    url: `${ctx.publicUrl}/resources`,
    organizer: { name: site.brand, email: ctx.organizer },
    attendee: { name, email: person.email },
    stamp: ctx.now,
    productId: `-//${site.brand}//Masterclass//EN`,
  });
  return calendarAttachment(ics, method, 'masterclass.ics');
}

function mail(
  kind: string,
  person: Registrant,
  subject: string,
  content: EmailContent,
  extra: Partial<OutgoingEmail> = {},
): OutgoingEmail {
  return { kind, to: person.email, subject, content, ...extra };
}

/**
 * A place is held: the confirmation (the visitor's own registration, `visitor` mail limited per
 * recipient) or a place given from the waitlist (`promoted`), with the invitation attached.
 */
export function placeEmail(
  event: EventRow,
  person: Registrant,
  ctx: MailContext,
  promoted = false,
): OutgoingEmail {
  const subject = promoted ? `A place is yours: ${event.title}` : `You're registered: ${event.title}`;
  return mail(
    promoted ? EVENT_MAIL_KINDS.promoted : EVENT_MAIL_KINDS.registered,
    person,
    subject,
    {
      preheader: when(event),
      heading: promoted ? 'A place has opened up for you' : 'Your place is confirmed',
      blocks: [
        {
          type: 'paragraph',
          text: promoted
            ? `${greeting(person.firstName)} someone has cancelled, and the first place on the waitlist is yours.`
            : `${greeting(person.firstName)} thank you for registering. Your place is held.`,
        },
        ...detailRows(event, true),
        {
          type: 'paragraph',
          text: 'The calendar invitation is attached. We will remind you 24 hours and 1 hour before.',
        },
        ...cancelBlocks(ctx),
      ],
    },
    {
      audience: promoted ? 'owner' : 'visitor',
      // Limited per registration: one for each masterclass registered for on the same day, and
      // again after a cancellation (which only the link in this e-mail can make).
      limitScope: person.registrationId,
      attachments: [calendarFile(event, person, 'REQUEST', ctx)],
    },
  );
}

/** The event was full: on the waitlist, first come first served. */
export function waitlistedEmail(event: EventRow, person: Registrant, ctx: MailContext): OutgoingEmail {
  return mail(
    EVENT_MAIL_KINDS.waitlisted,
    person,
    `You're on the waitlist: ${event.title}`,
    {
      preheader: when(event),
      heading: 'You are on the waitlist',
      blocks: [
        {
          type: 'paragraph',
          text: `${greeting(person.firstName)} this masterclass is full, so we have put you on its waitlist. If a place frees up, the first person waiting gets it and an e-mail with the details at once.`,
        },
        ...detailRows(event, false),
        ...cancelBlocks(ctx, true),
      ],
    },
    { audience: 'visitor', limitScope: person.registrationId },
  );
}

/** The reminders, queued to leave 24 hours and 1 hour before the start. */
export function reminderEmail(
  event: EventRow,
  person: Registrant,
  ctx: MailContext,
  which: '24h' | '1h',
  sendAt: Date,
): OutgoingEmail {
  const soon = which === '1h';
  return mail(
    soon ? EVENT_MAIL_KINDS.reminder1h : EVENT_MAIL_KINDS.reminder24h,
    person,
    soon ? `Starting in an hour: ${event.title}` : `Tomorrow: ${event.title}`,
    {
      preheader: when(event),
      heading: soon ? 'The masterclass starts in an hour' : 'A reminder: the masterclass is tomorrow',
      blocks: [
        { type: 'paragraph', text: `${greeting(person.firstName)} we look forward to seeing you.` },
        ...detailRows(event, true),
        ...cancelBlocks(ctx),
      ],
    },
    { audience: 'owner', sendAt },
  );
}

/** The owner changed the time, the place or the link: the same calendar entry, moved. */
export function updatedEmail(event: EventRow, person: Registrant, ctx: MailContext): OutgoingEmail {
  return mail(
    EVENT_MAIL_KINDS.updated,
    person,
    `Updated: ${event.title}`,
    {
      preheader: when(event),
      heading: 'The masterclass has changed',
      blocks: [
        {
          type: 'paragraph',
          text: `${greeting(person.firstName)} the details of the masterclass you registered for have changed. Your place is still held. The attached invitation updates the one in your calendar.`,
        },
        ...detailRows(event, true),
        ...cancelBlocks(ctx),
      ],
    },
    { audience: 'owner', attachments: [calendarFile(event, person, 'REQUEST', ctx)] },
  );
}

/** The owner cancelled the event: the calendar entry removed (METHOD:CANCEL); the waitlist told. */
export function eventCancelledEmail(event: EventRow, person: Registrant, ctx: MailContext): OutgoingEmail {
  const registered = person.status === 'registered';
  return mail(
    EVENT_MAIL_KINDS.cancelled,
    person,
    `Cancelled: ${event.title}`,
    {
      preheader: when(event),
      heading: 'The masterclass is cancelled',
      blocks: [
        {
          type: 'paragraph',
          text: `${greeting(person.firstName)} we are sorry: the masterclass below will not take place.${
            registered ? ' The attached file removes it from your calendar.' : ''
          }`,
        },
        ...detailRows(event, false),
        {
          type: 'paragraph',
          text: `We will announce the next one on ${ctx.publicUrl}/resources and in The Smart Money Newsletter.`,
        },
      ],
    },
    { audience: 'owner', attachments: registered ? [calendarFile(event, person, 'CANCEL', ctx)] : undefined },
  );
}

/**
 * The person cancelled with their link: a place's calendar entry is removed (METHOD:CANCEL, the
 * same UID, a higher SEQUENCE than the invitation's); leaving the waitlist is confirmed. Sent once
 * a registration, by whoever holds the link mailed to the address.
 */
export function withdrawnEmail(event: EventRow, person: Registrant, ctx: MailContext): OutgoingEmail {
  const hadPlace = person.status === 'registered';
  return mail(
    EVENT_MAIL_KINDS.withdrawn,
    person,
    hadPlace ? `Registration cancelled: ${event.title}` : `You have left the waitlist: ${event.title}`,
    {
      preheader: when(event),
      heading: hadPlace ? 'Your registration is cancelled' : 'You have left the waitlist',
      blocks: [
        {
          type: 'paragraph',
          text: hadPlace
            ? `${greeting(person.firstName)} as you asked, your place at the masterclass below is cancelled. The attached file removes it from your calendar.`
            : `${greeting(person.firstName)} as you asked, you are no longer on the waitlist for the masterclass below.`,
        },
        ...detailRows(event, false),
        {
          type: 'small',
          text: 'If you did not ask for this, you can register again on our Resources page while registration is open.',
        },
      ],
    },
    {
      audience: 'owner',
      attachments: hadPlace
        ? [calendarFile(event, person, 'CANCEL', ctx, event.calendarSequence + 1)]
        : undefined,
    },
  );
}

/** The owner's short message to every attendee. The owner's words, as text. */
export function attendeeMessageEmail(
  event: EventRow,
  person: Registrant,
  ctx: MailContext,
  subject: string,
  message: string,
): OutgoingEmail {
  return mail(
    EVENT_MAIL_KINDS.message,
    person,
    subject,
    {
      preheader: event.title,
      heading: subject,
      blocks: [
        { type: 'paragraph', text: greeting(person.firstName) },
        { type: 'quote', text: message },
        ...detailRows(event, true),
        ...cancelBlocks(ctx),
      ],
    },
    { audience: 'owner' },
  );
}

/** To the owner: a new registration with everything the person typed. */
export function ownerRegistrationEmail(
  event: EventRow,
  person: Registrant,
  to: string,
  placesLeft: number,
): OutgoingEmail {
  const waitlisted = person.status === 'waitlisted';
  return {
    kind: EVENT_MAIL_KINDS.owner,
    to,
    replyTo: person.email,
    subject: `${waitlisted ? 'Waitlist' : 'Registration'}: ${event.title}`,
    content: {
      preheader: `${waitlisted ? 'Waitlisted' : 'Registered'} for ${event.title}`,
      heading: waitlisted ? 'A new waitlist entry' : 'A new registration',
      blocks: [
        {
          type: 'fields',
          rows: [
            ['Name', person.firstName],
            ['Email', person.email],
            ['Role or company', person.company],
            ['Masterclass', event.title],
            ['When', when(event)],
            ['Status', waitlisted ? 'On the waitlist' : 'Place held'],
            ['Places left', String(placesLeft)],
          ],
        },
      ],
    },
  };
}

/**
 * Every e-mail about a booking. Each one names the booking's reference; the applicant's carry
 * the next steps, the cancellation terms and a signed link to cancel; the owner's carry every
 * field and the signed links to confirm or decline. Each is content for the layout: the outbox
 * renders (and escapes) it with `renderEmail` when it sends.
 */
import {
  OWNER_LINK_DAYS,
  SESSION_MINUTES,
  bookingCopy,
  bookingEmailCopy as copy,
  bookingTerms,
  sessionTypeLabels,
  type SessionTime,
  type SessionType,
} from '~/content/booking';
import { site } from '~/content/site';
import { greeting, quotableName } from '~/server/kit/mail/greeting';
import type { EmailBlock, EmailContent } from '~/server/kit/mail/layout';
import type { OutgoingEmail } from '~/server/kit/mail/outbox';
import { calendarAttachment } from '~/server/kit/mail/templates';
import { googleCalendarUrl, outlookCalendarUrl } from './booking-calendar-links';
import { formatChoice, formatClock, formatUkDate, ukWallTimeToInstant } from './booking-dates';
import { buildSessionIcs } from './booking-ics';
import type { BookingRequest } from './booking-schema';

/** What the templates need to know about a booking. */
export type BookingView = {
  id: string;
  reference: string;
  details: BookingRequest;
  /** A Zoom session's meeting link, once confirmed with one: the invitation's place. */
  meetingUrl?: string | null;
};

export type ConfirmedSlot = { date: string; start: string; end: string };

function applicantName(d: BookingRequest): string {
  return `${d.firstName} ${d.lastName}`;
}

function choiceRows(d: BookingRequest): [string, string][] {
  return [
    ['Session format', sessionTypeLabels[d.sessionType]],
    ['First choice', formatChoice(d.firstChoiceDate, d.firstChoiceTime)],
    [
      'Second choice',
      d.secondChoiceDate && d.secondChoiceTime
        ? formatChoice(d.secondChoiceDate, d.secondChoiceTime as SessionTime)
        : 'None given',
    ],
  ];
}

function slotText(slot: ConfirmedSlot): string {
  return `${formatUkDate(slot.date)}, ${formatClock(slot.start)}-${formatClock(slot.end)} UK time (${SESSION_MINUTES} minutes)`;
}

const termsBlock: EmailBlock = { type: 'small', text: bookingTerms };

/** An e-mail to the applicant's address, replies going to `o.replyTo`. */
function toApplicant(
  kind: string,
  o: { to: string; replyTo: string },
  subject: string,
  content: EmailContent,
  extra: Partial<OutgoingEmail> = {},
): OutgoingEmail {
  return { kind, ...extra, to: o.to, replyTo: o.replyTo, subject, content };
}

/** To the applicant, right after booking: both choices, next steps, terms, and a cancel link. */
export function requestReceivedEmail(
  b: BookingView,
  o: { to: string; replyTo: string; cancelUrl: string },
): OutgoingEmail {
  const d = b.details;
  const content: EmailContent = {
    preheader: `We have your request ${b.reference} and will confirm within 24 hours.`,
    heading: 'Thank you for your booking request',
    blocks: [
      {
        type: 'paragraph',
        text: `${greeting(d.firstName)} thank you for asking for a free strategy session with ${site.brand}. This is a request: we will confirm one of the times you chose below by e-mail, or suggest another.`,
      },
      { type: 'fields', rows: [['Reference', b.reference], ...choiceRows(d)] },
      {
        type: 'paragraph',
        text: `${bookingCopy.confirmed.nextStepsHeading}:\n${bookingCopy.confirmed.nextSteps.map((s, i) => `${i + 1}. ${s}`).join('\n')}`,
      },
      termsBlock,
      { type: 'paragraph', text: 'Plans changed? You can cancel this request with one click.' },
      { type: 'button', label: copy.cancel, url: o.cancelUrl },
    ],
    footer: [
      {
        type: 'small',
        text: `You received this because you booked a session at ${site.brand}. Reply to this e-mail with any question.`,
      },
    ],
  };
  // The applicant's address came from the form: limited per recipient, counted in the cap.
  return toApplicant('booking.applicant', o, copy.applicantRequestSubject(b.reference), content, {
    audience: 'visitor',
  });
}

/** To the owner: every field, Reply-To the applicant, and the one-click links. */
export function ownerRequestEmail(
  b: BookingView,
  o: { to: string; confirmFirstUrl: string; confirmSecondUrl?: string; declineUrl: string },
): OutgoingEmail {
  const d = b.details;
  const name = applicantName(d);
  const content: EmailContent = {
    preheader: `${name}, ${sessionTypeLabels[d.sessionType]}, first choice ${formatChoice(d.firstChoiceDate, d.firstChoiceTime)}`,
    heading: `New strategy session booking ${b.reference}`,
    blocks: [
      {
        type: 'fields',
        rows: [
          ['Reference', b.reference],
          ['Name', name],
          ['Email', d.email],
          ['Phone', d.phone],
          ['Company', d.company],
          ['Job title', d.role],
          ...choiceRows(d),
          ['Special requirements or questions', d.notes || 'None'],
        ],
      },
      {
        type: 'paragraph',
        text: 'Pick the start time of the 45-minute session on the page each link opens; the applicant then receives a calendar invitation.',
      },
      { type: 'button', label: copy.confirmFirst, url: o.confirmFirstUrl },
      ...(o.confirmSecondUrl
        ? [{ type: 'button', label: copy.confirmSecond, url: o.confirmSecondUrl } as const]
        : []),
      { type: 'button', label: copy.decline, url: o.declineUrl },
      {
        type: 'small',
        text: `Each link works once, for ${OWNER_LINK_DAYS} days at most; a confirm link stops working after its date. Reply to this e-mail to write to the applicant.`,
      },
    ],
  };
  return {
    kind: 'booking.owner',
    to: o.to,
    replyTo: d.email,
    subject: copy.ownerRequestSubject(b.reference, name),
    content,
  };
}

/** The calendar entry's words of a session: the same in the invitation and in the owner's diary. */
export function eventTexts(b: BookingView) {
  const label = sessionTypeLabels[b.details.sessionType];
  return {
    summary: copy.eventSummary(label),
    location: b.meetingUrl || copy.eventLocation[b.details.sessionType as SessionType],
    description: `${site.brand} strategy session, ${label}. Reference ${b.reference}.`,
  };
}

export function calendarUid(bookingId: string, publicUrl: string): string {
  return `booking-${bookingId}@${new URL(publicUrl).hostname}`;
}

type InviteOptions = { uid: string; sequence: number; organizer: string; now: Date };

/** The applicant's own links of a confirmed session (decision 039), in its e-mails and its invitation. */
export type ApplicantLinks = { cancelUrl: string; rescheduleUrl: string };

function icsAttachment(
  b: BookingView,
  slot: ConfirmedSlot,
  method: 'REQUEST' | 'CANCEL',
  o: InviteOptions & Partial<ApplicantLinks>,
) {
  const t = eventTexts(b);
  const ics = buildSessionIcs({
    method,
    uid: o.uid,
    sequence: o.sequence,
    date: slot.date,
    start: slot.start,
    end: slot.end,
    summary: t.summary,
    // The invitation carries the applicant's links too: the calendar is where they look.
    description:
      o.rescheduleUrl && o.cancelUrl
        ? `${t.description}\n\n${copy.reschedule}: ${o.rescheduleUrl}\n${copy.cancel}: ${o.cancelUrl}`
        : t.description,
    location: t.location,
    organizer: { name: site.brand, email: o.organizer },
    // The invitation reaches the applicant's address: names only where they are plainly names.
    attendee: {
      name:
        [quotableName(b.details.firstName), quotableName(b.details.lastName)].filter(Boolean).join(' ') ||
        'Guest',
      email: b.details.email,
    },
    stamp: o.now,
    productId: `-//${site.brand}//Booking//EN`,
  });
  return calendarAttachment(ics, method, 'invite.ics');
}

/** To the applicant once the owner confirms: the slot, the .ics invite and calendar links. */
export function confirmedEmail(
  b: BookingView,
  slot: ConfirmedSlot,
  o: InviteOptions & ApplicantLinks & { to: string; replyTo: string; rescheduled?: boolean },
): OutgoingEmail {
  const t = eventTexts(b);
  const subject = o.rescheduled ? copy.rescheduledSubject : copy.confirmedSubject;
  const calendarEvent = {
    title: t.summary,
    details: t.description,
    location: t.location,
    start: ukWallTimeToInstant(slot.date, slot.start),
    end: ukWallTimeToInstant(slot.date, slot.end),
  };
  const content: EmailContent = {
    preheader: `${slotText(slot)}. Reference ${b.reference}.`,
    heading: subject,
    blocks: [
      {
        type: 'paragraph',
        text: o.rescheduled
          ? `${greeting(b.details.firstName)} your strategy session has moved to a new time. The attached invitation updates the one in your calendar.`
          : `${greeting(b.details.firstName)} your strategy session is booked.`,
      },
      {
        type: 'fields',
        rows: [
          ['Reference', b.reference],
          ['Session format', sessionTypeLabels[b.details.sessionType]],
          ['When', slotText(slot)],
          ['Where', t.location],
        ],
      },
      { type: 'paragraph', text: 'The calendar invitation is attached. You can also add it here:' },
      { type: 'button', label: copy.addToGoogle, url: googleCalendarUrl(calendarEvent) },
      { type: 'button', label: copy.addToOutlook, url: outlookCalendarUrl(calendarEvent) },
      { type: 'paragraph', text: bookingCopy.confirmed.nextSteps[2] },
      termsBlock,
      { type: 'button', label: copy.reschedule, url: o.rescheduleUrl },
      { type: 'button', label: copy.cancel, url: o.cancelUrl },
    ],
  };
  return toApplicant(o.rescheduled ? 'booking.rescheduled' : 'booking.confirmed', o, subject, content, {
    attachments: [icsAttachment(b, slot, 'REQUEST', o)],
  });
}

/**
 * To the applicant, REMINDER_HOURS_BEFORE the session: when and where, and the cancel link. Due
 * at `sendAt`, not sent after `notAfter`; it carries no invitation (the calendar has it).
 */
export function reminderEmail(
  b: BookingView,
  slot: ConfirmedSlot,
  o: { to: string; replyTo: string; cancelUrl: string; sendAt: Date; notAfter: Date },
): OutgoingEmail {
  const t = eventTexts(b);
  const content: EmailContent = {
    preheader: `${slotText(slot)}. Reference ${b.reference}.`,
    heading: 'A reminder: your strategy session is tomorrow',
    blocks: [
      { type: 'paragraph', text: `${greeting(b.details.firstName)} we look forward to speaking with you.` },
      {
        type: 'fields',
        rows: [
          ['Reference', b.reference],
          ['Session format', sessionTypeLabels[b.details.sessionType]],
          ['When', slotText(slot)],
          ['Where', t.location],
        ],
      },
      termsBlock,
      { type: 'button', label: copy.cancel, url: o.cancelUrl },
    ],
  };
  return toApplicant(REMINDER_KIND, o, copy.reminderSubject, content, {
    sendAt: o.sendAt,
    notAfter: o.notAfter,
  });
}

export const REMINDER_KIND = 'booking.reminder';

/**
 * To the owner when the applicant asks to move their confirmed session: the current time, the
 * half-day asked for, and the links to confirm the new time (picking its start) or keep the
 * current one.
 */
export function moveAskedOwnerEmail(
  b: BookingView,
  current: ConfirmedSlot,
  asked: { date: string; time: SessionTime },
  o: { to: string; confirmMoveUrl: string; keepTimeUrl: string },
): OutgoingEmail {
  const name = applicantName(b.details);
  const content: EmailContent = {
    preheader: `${name} asks to move ${b.reference} to ${formatChoice(asked.date, asked.time)}`,
    heading: `${name} asks to move their session`,
    blocks: [
      {
        type: 'fields',
        rows: [
          ['Reference', b.reference],
          ['Name', name],
          ['Current session', slotText(current)],
          ['Asks to move to', formatChoice(asked.date, asked.time)],
        ],
      },
      {
        type: 'paragraph',
        text: 'The session stays at its current time until you confirm the new one. Confirming sends the applicant the updated calendar invitation; keeping the current time tells them so.',
      },
      { type: 'button', label: copy.confirmMove, url: o.confirmMoveUrl },
      { type: 'button', label: copy.keepTime, url: o.keepTimeUrl },
    ],
  };
  return {
    kind: 'booking.move-owner',
    to: o.to,
    replyTo: b.details.email,
    subject: copy.moveAskedOwnerSubject(b.reference, name),
    content,
  };
}

/** To the applicant once they asked to move: what they asked for, and that the session stays until confirmed. */
export function moveAskedApplicantEmail(
  b: BookingView,
  current: ConfirmedSlot,
  asked: { date: string; time: SessionTime },
  o: { to: string; replyTo: string },
): OutgoingEmail {
  const content: EmailContent = {
    preheader: `You asked for ${formatChoice(asked.date, asked.time)}. Reference ${b.reference}.`,
    heading: 'We have your request to move your session',
    blocks: [
      {
        type: 'paragraph',
        text: `${greeting(b.details.firstName)} you asked to move your strategy session to ${formatChoice(asked.date, asked.time)}. We will confirm the new start time by e-mail. Until then your session stays at ${slotText(current)}.`,
      },
      termsBlock,
    ],
  };
  return toApplicant('booking.move-asked', o, copy.moveAskedApplicantSubject(b.reference), content);
}

/** To the applicant when the owner keeps the current time. */
export function moveKeptEmail(
  b: BookingView,
  current: ConfirmedSlot,
  asked: { date: string; time: SessionTime },
  o: { to: string; replyTo: string },
): OutgoingEmail {
  const content: EmailContent = {
    preheader: `Your session stays at ${slotText(current)}.`,
    heading: 'Your session stays at its time',
    blocks: [
      {
        type: 'paragraph',
        text: `${greeting(b.details.firstName)} we are sorry: we cannot move your strategy session to ${formatChoice(asked.date, asked.time)}. It stays at ${slotText(current)}, as in your calendar. Reply to this e-mail if that time no longer suits you and we will find another together.`,
      },
      termsBlock,
    ],
  };
  return toApplicant('booking.move-kept', o, copy.moveKeptSubject(b.reference), content);
}

/**
 * To the applicant when the owner declines: what they asked for, truly (one choice or two), the
 * owner's reason if given, and another half-day if the owner suggests one.
 */
export function declinedEmail(
  b: BookingView,
  o: {
    to: string;
    replyTo: string;
    bookUrl: string;
    reason?: string;
    suggestion?: { date: string; time: SessionTime };
  },
): OutgoingEmail {
  const d = b.details;
  const two = Boolean(d.secondChoiceDate && d.secondChoiceTime);
  const asked: [string, string][] = [
    ['Session format', sessionTypeLabels[d.sessionType]],
    [two ? 'First choice' : 'You asked for', formatChoice(d.firstChoiceDate, d.firstChoiceTime)],
    ...(two
      ? ([['Second choice', formatChoice(d.secondChoiceDate, d.secondChoiceTime as SessionTime)]] as [
          string,
          string,
        ][])
      : []),
  ];
  const content: EmailContent = {
    preheader: `About your request ${b.reference}`,
    heading: 'We could not confirm your session',
    blocks: [
      {
        type: 'paragraph',
        text: two
          ? `${greeting(d.firstName)} we are sorry: neither of the times you chose for your strategy session (reference ${b.reference}) is available.`
          : `${greeting(d.firstName)} we are sorry: the time you chose for your strategy session (reference ${b.reference}) is not available.`,
      },
      { type: 'fields', rows: asked },
      ...(o.reason ? [{ type: 'paragraph', text: `Our note: ${o.reason}` } as const] : []),
      ...(o.suggestion
        ? [
            {
              type: 'paragraph',
              text: `We could offer ${formatChoice(o.suggestion.date, o.suggestion.time)} instead. If it suits you, ask for it on the booking page.`,
            } as const,
          ]
        : [
            {
              type: 'paragraph',
              text: 'Please book again with other dates, or reply to this e-mail and we will find a time together.',
            } as const,
          ]),
      { type: 'button', label: 'Book another time', url: o.bookUrl },
    ],
  };
  return toApplicant('booking.declined', o, copy.declinedSubject(b.reference), content);
}

/** To the applicant when they cancel; with a METHOD:CANCEL for a session already in their calendar. */
export function cancelledApplicantEmail(
  b: BookingView,
  slot: ConfirmedSlot | undefined,
  o: InviteOptions & { to: string; replyTo: string; bookUrl: string },
): OutgoingEmail {
  const content: EmailContent = {
    preheader: `Booking ${b.reference} is cancelled.`,
    heading: 'Your booking is cancelled',
    blocks: [
      {
        type: 'paragraph',
        text: `${greeting(b.details.firstName)} your strategy session ${b.reference} is cancelled${
          slot ? ` (it was set for ${slotText(slot)}); the attached update removes it from your calendar` : ''
        }.`,
      },
      termsBlock,
      { type: 'paragraph', text: 'You are welcome to book again whenever it suits you.' },
      { type: 'button', label: 'Book a session', url: o.bookUrl },
    ],
  };
  return toApplicant('booking.cancelled', o, copy.cancelledApplicantSubject(b.reference), content, {
    attachments: slot ? [icsAttachment(b, slot, 'CANCEL', o)] : undefined,
  });
}

/** To the owner when the applicant cancels. */
export function cancelledOwnerEmail(
  b: BookingView,
  slot: ConfirmedSlot | undefined,
  o: { to: string },
): OutgoingEmail {
  const name = applicantName(b.details);
  const content: EmailContent = {
    preheader: `${name} cancelled ${b.reference}.`,
    heading: `Booking ${b.reference} cancelled`,
    blocks: [
      { type: 'paragraph', text: `${name} cancelled their strategy session request.` },
      {
        type: 'fields',
        rows: [
          ['Reference', b.reference],
          ['Name', name],
          ['Email', b.details.email],
          ...(slot ? ([['Was confirmed for', slotText(slot)]] as [string, string][]) : choiceRows(b.details)),
        ],
      },
    ],
  };
  return {
    kind: 'booking.cancelled-owner',
    to: o.to,
    replyTo: b.details.email,
    subject: copy.cancelledOwnerSubject(b.reference, name),
    content,
  };
}

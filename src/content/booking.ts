/**
 * Every word and constant of the booking flow: the wizard's labels and messages (spec
 * sections 2, 3, 5 and 8, verbatim), the e-mails' copy, and the pages the owner and the
 * applicant reach from e-mail links.
 */

export const SESSION_TYPES = ['zoom', 'inPerson', 'team'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

export const sessionTypeLabels: Record<SessionType, string> = {
  zoom: 'Live Zoom Workshop',
  inPerson: 'In-Person Workshop (London)',
  team: 'Team Training (up to 10 people)',
};

export const sessionTypeDescriptions: Record<SessionType, string> = {
  zoom: 'A private 45-minute video session, wherever you are.',
  inPerson: 'Meet us in central London for a private session.',
  team: 'Bring your colleagues: one session for up to 10 people.',
};

export const SESSION_TIMES = ['morning', 'afternoon'] as const;
export type SessionTime = (typeof SESSION_TIMES)[number];

export const sessionTimeLabels: Record<SessionTime, string> = {
  morning: '9am-12pm',
  afternoon: '1pm-5pm',
};

/** The UK-time windows the visitor chooses between; the owner picks the start inside one. */
export const sessionTimeWindows: Record<SessionTime, { start: string; end: string }> = {
  morning: { start: '09:00', end: '12:00' },
  afternoon: { start: '13:00', end: '17:00' },
};

/** The free strategy session lasts 45 minutes (spec section 9). */
export const SESSION_MINUTES = 45;
/** The owner may start a session on any quarter hour that leaves it inside the window. */
export const START_STEP_MINUTES = 15;
/** How far ahead a visitor may ask for a date. */
export const BOOKING_HORIZON_DAYS = 365;
/** The owner's confirm and decline links stop working after this. */
export const OWNER_LINK_DAYS = 14;
/**
 * A request holds its first-choice half-day (no one else is offered it) until the owner answers,
 * or for this many days at most (decision 036).
 */
export const REQUEST_HOLD_DAYS = 3;

/**
 * A confirmed session's reminder leaves this many hours before it starts (none when the session
 * is confirmed or moved closer than that), and is not sent at all once REMINDER_GRACE_HOURS have
 * passed since it was due (after downtime, a reminder hours late would mislead).
 */
export const REMINDER_HOURS_BEFORE = 24;
export const REMINDER_GRACE_HOURS = 2;

export const UK_TIME_ZONE = 'Europe/London';

/** The validation messages of the spec's booking table (section 5), plus our date rules. */
export const bookingMessages = {
  sessionType: 'Please select a session type',
  date: 'Please select a date',
  time: 'Please select a time',
  firstName: 'First name should be at least 2 characters',
  lastName: 'Last name should be at least 2 characters',
  email: 'Please enter a valid email address',
  phoneFormat: 'Please enter a valid phone number',
  phoneLength: 'Phone number must be at least 10 digits',
  company: 'Company name should be at least 2 characters',
  role: 'Job title should be at least 2 characters',
  dateNotFuture: 'Please choose a date from tomorrow onwards',
  dateTooFar: 'Please choose a date within the next 12 months',
  dateInvalid: 'Please enter a date as day, month and year',
  secondSameAsFirst: 'Your second choice must differ from your first choice',
  tooLong: (max: number) => `Please keep this under ${max} characters`,
} as const;

export const bookingLimits = {
  name: 50,
  email: 100,
  phone: 30,
  company: 100,
  role: 100,
  notes: 5000,
} as const;

export const bookingCopy = {
  formTitle: 'Book Your Strategy Session',
  stepLabel: (step: number) => `Step ${step} of 2`,
  step1: {
    heading: 'Select Your Session Format',
    sessionTypeLegend: 'Session format',
    firstChoice: 'First choice',
    secondChoice: 'Second choice (optional)',
    dateLabel: 'Date',
    timeLegend: 'Time (UK)',
    timeOption: (time: SessionTime) =>
      `${time === 'morning' ? 'Morning' : 'Afternoon'} (${sessionTimeLabels[time]})`,
    clearSecondChoice: 'Clear second choice',
    continue: 'Continue to Contact Details',
  },
  step2: {
    heading: 'Your Details',
    /** Above the fields: what is being asked for, and that the owner will confirm it. */
    askingFor: 'You are asking for',
    requestNote: 'We will confirm one of these times by e-mail before the session is booked.',
    firstName: 'First Name',
    lastName: 'Last Name',
    email: 'Email Address',
    phone: 'Phone Number',
    phonePlaceholder: '+44 XXXX XXXXXX',
    company: 'Company',
    role: 'Job Title',
    notes: 'Special Requirements or Questions',
    notesHint: 'Optional',
    back: 'Back',
    submit: 'Complete Booking',
    submitting: 'Submitting...',
  },
  confirmed: {
    heading: 'Booking Confirmed!',
    intro:
      'Thank you for booking your strategy session. This is a request: we will confirm one of the times you chose by e-mail, or suggest another.',
    /** The chosen half-days, repeated under the intro. */
    choicesHeading: 'You asked for',
    referenceLabel: 'Your booking reference',
    nextStepsHeading: 'What happens next',
    nextSteps: [
      "You'll receive a confirmation email shortly.",
      "We'll contact you within 24 hours to confirm the details.",
      "You'll receive preparation materials one week before your session.",
    ],
  },
  toasts: {
    incompleteStep: 'Please fill in all required fields before continuing',
    success: 'Booking submitted successfully!',
    failure: 'There was a problem submitting your booking. Please try again.',
  },
} as const;

/** The FAQ's cancellation and rescheduling terms, repeated in every e-mail to the applicant. */
export const bookingTerms =
  'Cancellation and rescheduling: you can reschedule any session up to 48 hours before it starts. Paid sessions cancelled with 7 or more days of notice are refunded in full.';

export const bookingEmailCopy = {
  applicantRequestSubject: (reference: string) => `Your strategy session request ${reference}`,
  ownerRequestSubject: (reference: string, name: string) =>
    `New strategy session booking ${reference} from ${name}`,
  confirmedSubject: 'Your strategy session is confirmed',
  rescheduledSubject: 'Your strategy session has moved',
  reminderSubject: 'Tomorrow: your strategy session',
  declinedSubject: (reference: string) => `About your strategy session request ${reference}`,
  cancelledApplicantSubject: (reference: string) => `Your strategy session ${reference} is cancelled`,
  cancelledOwnerSubject: (reference: string, name: string) => `Booking ${reference} cancelled by ${name}`,
  moveAskedOwnerSubject: (reference: string, name: string) => `${name} asks to move session ${reference}`,
  moveAskedApplicantSubject: (reference: string) => `Your request to move session ${reference}`,
  moveKeptSubject: (reference: string) => `Your strategy session ${reference} stays at its time`,
  reschedule: 'Move to another time',
  confirmMove: 'Confirm the new time',
  keepTime: 'Keep the current time',
  confirmFirst: 'Confirm first choice',
  confirmSecond: 'Confirm second choice',
  decline: 'Decline',
  cancel: 'Cancel this booking',
  addToGoogle: 'Add to Google Calendar',
  addToOutlook: 'Add to Outlook',
  eventSummary: (sessionLabel: string) => `Strategy session: ${sessionLabel}`,
  eventLocation: {
    zoom: 'Online (Zoom link sent before the session)',
    inPerson: 'London (address sent before the session)',
    team: 'To be agreed (details sent before the session)',
  } satisfies Record<SessionType, string>,
};

/** The small pages reached from e-mail links. */
/** A session's time that clashes with the owner's diary (a confirmed session, a masterclass). */
/** What the wizard says of a date or half-day the owner's availability does not offer (decision 036). */
export const availabilityCopy = {
  /** Beside a half-day that cannot be chosen, and read with it. */
  closed: 'Closed',
  full: 'Fully booked',
  dateClosed: 'Sessions are not offered on this date. Please choose another date',
  dateFull: 'This date is fully booked. Please choose another date',
  timeUnavailable: 'This time is not available. Please choose another',
  /** The server's answer when the half-day was taken between the page's load and the request. */
  taken: 'Sorry, that time has just been taken. Please choose another date or time.',
  /** Beside a chosen half-day, for a visitor whose browser is in another time zone. */
  localTime: (local: string) => `In your time zone: ${local}`,
  showCalendar: (choice: string) =>
    `Show free dates for the ${choice.toLowerCase().replace(' (optional)', '')}`,
  hideCalendar: 'Hide the calendar',
  loadingCalendar: 'Loading the calendar…',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  chosen: 'chosen',
  calendarLegend: 'Crossed-out dates are closed or fully booked. All times are UK time.',
} as const;

export const bookingClashCopy = {
  /** What closes a session's half-day, as the owner's confirm or move names it. */
  closedBy: {
    dayOff: (note: string) => (note ? `a day off (${note})` : 'a day off'),
    bankHoliday: (name: string) => `a bank holiday (${name})`,
    weeklyHours: (day: string, time: SessionTime) => `your weekly hours (${day} ${time}s closed)`,
    calendar: 'your own calendar (busy then)',
  },
  /** `why`: what closes the day in the owner's availability ("a day off (Dentist)"). */
  closed: (why: string, day: string, action: 'confirm' | 'move') =>
    `${day} is closed by ${why}. Choose another time, or ${action === 'confirm' ? 'confirm' : 'move'} it anyway.`,
  closedByLink: (why: string, day: string) =>
    `${day} is closed by ${why}. Choose another time, or confirm it anyway from the Bookings page of the console.`,
  /** `what`: "booking BK-K7WC6H" or 'the masterclass "…"'; `when`: its day and times in UK words. */
  clash: (what: string, when: string, action: 'confirm' | 'move') =>
    `This time clashes with ${what}, ${when}. Choose another start time, or ${action === 'confirm' ? 'confirm' : 'move'} it anyway.`,
  /** The owner's e-mailed link cannot insist: the console can. */
  clashByLink: (what: string, when: string) =>
    `This time clashes with ${what}, ${when}. Choose another start time, or confirm it anyway from the Bookings page of the console.`,
} as const;

/** Hours before a session after which its applicant can no longer move it with the e-mail's link (bookingTerms). */
export const RESCHEDULE_NOTICE_HOURS = 48;

export const bookingActionCopy = {
  respondTitle: 'Respond to a booking request',
  cancelTitle: 'Cancel your booking',
  rescheduleTitle: 'Move your session',
  rescheduleHeading: 'Move your strategy session to another time',
  rescheduleIntro:
    'Choose a free morning or afternoon. We will confirm the new time by e-mail; until then your session stays where it is.',
  rescheduleDateLabel: 'New date',
  rescheduleTimeLegend: 'Morning or afternoon (UK time)',
  rescheduleButton: 'Ask for this time',
  rescheduleChoiceMissing: 'Please choose a date and a morning or afternoon.',
  moveAskedDone: (asked: string, current: string) =>
    `Your request to move to ${asked} is sent. Your session stays at ${current} until we confirm the new time by e-mail.`,
  confirmMoveHeading: 'Confirm the new time asked for',
  keepTimeHeading: 'Keep the current time',
  keepTimeButton: 'Keep the current time',
  moveKeptDone: 'Kept at its current time. The applicant has been told.',
  moveRow: 'Asks to move to',
  meetingLinkLabel: 'Meeting link',
  meetingLinkMissing:
    'A Zoom session needs its meeting link: paste it (https://…), or set a default on the Availability page.',
  loading: 'Checking your link...',
  confirmHeading: (choice: 1 | 2) =>
    choice === 1 ? 'Confirm the first choice' : 'Confirm the second choice',
  declineHeading: 'Decline this booking request',
  cancelHeading: 'Cancel your strategy session',
  startLegend: 'Start time (UK time, 45 minutes)',
  confirmButton: 'Confirm booking',
  declineButton: 'Decline request',
  cancelButton: 'Cancel my booking',
  working: 'Saving...',
  confirmedDone: (when: string) =>
    `Confirmed for ${when}. The applicant has been sent a calendar invitation.`,
  declinedDone: 'Declined. The applicant has been told.',
  cancelledDone: 'Your booking is cancelled. We have let the team know.',
  /** The owner cancelled from the console. */
  ownerCancelledDone: 'Cancelled. The applicant has been told.',
  rescheduledDone: (when: string) =>
    `Moved to ${when}. The applicant has been sent the updated calendar invitation.`,
  refusals: {
    invalid: 'This link is not valid. Please use the link exactly as it appears in the e-mail.',
    expired: 'This link has expired. Please get in touch and we will sort it out.',
    used: 'This link has already been used.',
    closed: (status: string) => `This booking is already ${status}.`,
    past: 'The date of this choice has passed.',
    sessionOver: 'This session has already taken place.',
    late: `This session starts in less than ${RESCHEDULE_NOTICE_HOURS} hours, so it can no longer be moved here. Please reply to your confirmation e-mail and we will do what we can.`,
    moveAsked: 'You have already asked to move this session. We will reply by e-mail.',
    noMove: 'There is no request to move this session any more.',
    network: 'We could not reach the server. Please check your connection and try again.',
  },
} as const;

/**
 * Every word of the owner's console (src/console): sign-in, navigation, each page's headings,
 * labels, buttons and messages. The console's data (leads, bookings, e-mails) comes from its
 * API; the server's own sentences (sign-in answers, refusals, warnings) are shown as it sends them.
 */

export const consoleMeta = {
  title: 'Owner console',
  description: 'The owner’s console.',
};

export const consoleCopy = {
  brand: 'Owner console',
  loading: 'Loading…',
  checkingSession: 'Checking your session…',
  skipToPage: 'Skip to the page',
  networkError: 'The console could not reach the server. Check your connection and try again.',
  loadError: 'This page could not be loaded.',
  tryAgain: 'Try again',
  sessionEnded: 'Your session has ended. Sign in again to continue.',
  signedInAs: 'Signed in as',
  signOut: 'Sign out',
  signingOut: 'Signing out…',
  viewSite: 'View the site',
  navLabel: 'Console',
  pagesLabel: 'Pages',
  cancel: 'Cancel',
  never: 'Never',
  none: '—',
  notFound: {
    title: 'Page not found',
    text: 'The console has no page at this address.',
    back: 'Go to the overview',
  },
};

export const signInCopy = {
  title: 'Sign in to the console',
  intro: 'The owner’s console: leads, spam, bookings and e-mail deliveries.',
  emailHeading: 'Sign in with an e-mail link',
  emailLabel: 'Email address',
  emailRequired: 'Enter your e-mail address.',
  emailInvalid: 'Enter an e-mail address such as name@example.com.',
  emailButton: 'E-mail me a sign-in link',
  emailSending: 'Sending…',
  passkeyHeading: 'Sign in with a passkey',
  passkeyText: 'Use a passkey you added to this console on this device or your phone.',
  passkeyButton: 'Sign in with a passkey',
  passkeyWorking: 'Waiting for your passkey…',
  passkeyCancelled: 'The passkey sign-in was cancelled or timed out. Try again, or ask for an e-mail link.',
  passkeyUnsupported: 'This browser cannot use passkeys. Ask for an e-mail link instead.',
  firstTime:
    'First sign-in, or e-mail not working? On the server, run npm run owner:link for a single-use link.',
  link: {
    title: 'Finish signing in',
    text: 'Press the button to sign in on this device. The link works once.',
    button: 'Sign in',
    working: 'Signing in…',
    missing: 'This address has no sign-in token. Ask for a new link.',
    back: 'Back to the sign-in page',
  },
};

export const overviewCopy = {
  title: 'Overview',
  leadsHeading: 'New leads',
  leadsTable: 'New leads by form',
  form: 'Form',
  today: 'Today',
  week: 'This week',
  total: 'All forms',
  bookingsAwaiting: 'Bookings awaiting an answer',
  spamHeld: 'Held as spam',
  openBookings: 'Answer bookings',
  openSpam: 'Review spam',
  openInbox: 'Open the inbox',
  mailWarningsHeading: 'E-mail is not being delivered',
  configWarningsHeading: 'Configuration left at its defaults',
  openDeliveries: 'See deliveries',
  allWell: 'E-mail is being delivered.',
};

export const inboxCopy = {
  title: 'Inbox',
  filtersHeading: 'Filter',
  form: 'Form',
  anyForm: 'All forms',
  status: 'Status',
  statuses: { received: 'Delivered', spam: 'Spam', all: 'All' } as Record<string, string>,
  from: 'From',
  to: 'To',
  search: 'Search',
  searchHint: 'names, e-mail addresses, companies, messages',
  apply: 'Apply',
  clear: 'Clear filters',
  received: 'Received',
  from_: 'From',
  formColumn: 'Form',
  excerpt: 'Message',
  open: 'Open',
  empty: 'No submissions match.',
  older: 'Older',
  newest: 'Newest',
  count: (n: number, more: boolean) =>
    n === 0
      ? 'No submissions match.'
      : `${n} submission${n === 1 ? '' : 's'} shown${more ? ', more are older' : ''}.`,
  spamBadge: 'Spam',
  tableLabel: 'Submissions, newest first',
  download: 'Download these as CSV',
};

export const submissionCopy = {
  titleFallback: 'Submission',
  back: 'Back to the inbox',
  backToSpam: 'Back to spam',
  summary: 'Summary',
  form: 'Form',
  received: 'Received',
  status: 'Status',
  delivered: 'Delivered',
  spam: 'Held as spam',
  released: 'Released from spam',
  reason: 'Reason',
  fieldsHeading: 'What was sent',
  consentsHeading: 'Consents',
  noConsents: 'No consent was asked for with this form.',
  givenAt: 'Given',
  emailsHeading: 'E-mails',
  noEmails: 'This submission produced no e-mails.',
  booking: 'Booking',
  openBooking: 'See bookings',
  markSpam: 'Mark as spam',
  notSpam: 'Not spam',
  delete: 'Delete',
  markedSpam: 'Moved to spam.',
  releasedMessage: (n: number) => `Released. ${n} e-mail${n === 1 ? '' : 's'} queued.`,
  deleted: 'The submission was deleted.',
  confirmDeleteTitle: 'Delete this submission?',
  confirmDeleteText: 'It is removed for good, with its consents and e-mails. This cannot be undone.',
  actionsHeading: 'Actions',
};

export const spamCopy = {
  title: 'Spam',
  intro:
    'Submissions the spam traps held back. Nothing was e-mailed for them. “Not spam” delivers one exactly once.',
  empty: 'Nothing is held as spam.',
  reason: 'Reason',
  received: 'Received',
  from: 'From',
  excerpt: 'Message',
  actions: 'Actions',
  tableLabel: 'Submissions held as spam, newest first',
  unknownReason: 'Held as spam',
};

export const bookingsCopy = {
  title: 'Bookings',
  views: {
    requested: 'Requested',
    confirmed: 'Confirmed',
    declined: 'Declined',
    cancelled: 'Cancelled',
    past: 'Past',
  } as Record<string, string>,
  viewsLabel: 'Booking status',
  empty: (view: string) => `No ${view.toLowerCase()} bookings.`,
  reference: 'Reference',
  sessionType: 'Session',
  company: 'Company',
  email: 'E-mail',
  choices: 'Preferred times',
  choice: (n: number) => (n === 1 ? 'First choice' : 'Second choice'),
  session: 'Session',
  requestedAt: 'Requested',
  history: 'History',
  by: 'by',
  submission: 'See the submission',
  confirm: 'Confirm',
  confirmHeading: 'Confirm a time',
  chooseChoice: 'Day',
  startTime: 'Start time',
  decline: 'Decline',
  cancel: 'Cancel the session',
  reschedule: 'Reschedule',
  rescheduleHeading: 'Reschedule',
  rescheduleDate: 'New date',
  rescheduleStart: 'New start time',
  rescheduleButton: 'Reschedule and tell the applicant',
  chooseDateFirst: 'Choose a date first',
  noStartTimes: 'No start times on that date.',
  confirmDeclineTitle: 'Decline this request?',
  confirmDeclineText: 'The applicant is told by e-mail that the session cannot go ahead.',
  confirmCancelTitle: 'Cancel this session?',
  confirmCancelText: 'The applicant gets a cancellation and their calendar entry is removed.',
  keep: 'Keep it',
  statusWords: {
    requested: 'Requested',
    confirmed: 'Confirmed',
    declined: 'Declined',
    cancelled: 'Cancelled',
    rescheduled: 'Rescheduled',
  } as Record<string, string>,
};

export const deliveriesCopy = {
  title: 'Deliveries',
  intro: 'E-mails waiting to go, those that failed, and those sent in the last 7 days.',
  filtersLabel: 'Show',
  filters: { '': 'Waiting, failed and recent', failed: 'Failed', pending: 'Waiting', sent: 'Sent' } as Record<
    string,
    string
  >,
  statuses: {
    pending: 'Waiting',
    failed: 'Failed',
    sent: 'Sent',
    skipped: 'Not sent',
    suppressed: 'Suppressed',
  } as Record<string, string>,
  created: 'Queued',
  to: 'To',
  subject: 'Subject',
  status: 'Status',
  attempts: 'Attempts',
  lastError: 'Last error',
  sentAt: 'Sent',
  actions: 'Actions',
  retry: 'Retry',
  retried: 'The e-mail is on its way again.',
  empty: 'No e-mails here.',
  tableLabel: 'E-mail deliveries',
  submission: 'Submission',
};

export const auditCopy = {
  title: 'Audit log',
  intro: 'Every sign-in and every action taken in this console, newest first.',
  at: 'Time',
  actor: 'Who',
  action: 'Action',
  target: 'Target',
  empty: 'Nothing has been recorded yet.',
  older: 'Older',
  newest: 'Newest',
  tableLabel: 'Audit log, newest first',
};

export const securityCopy = {
  title: 'Security',
  passkeysHeading: 'Passkeys',
  passkeysIntro:
    'A passkey signs you in with this device’s screen lock or your phone, without waiting for an e-mail.',
  noPasskeys: 'No passkeys yet.',
  name: 'Name',
  created: 'Added',
  lastUsed: 'Last used',
  actions: 'Actions',
  remove: 'Remove',
  removeTitle: 'Remove this passkey?',
  removeText: 'It will no longer sign you in. Sessions already open stay open.',
  removed: 'The passkey was removed.',
  addHeading: 'Add a passkey',
  addName: 'Passkey name',
  addNameHint: 'for example “Work laptop”',
  addButton: 'Add a passkey',
  adding: 'Waiting for your device…',
  added: (name: string) => `Passkey “${name}” added.`,
  addCancelled: 'The passkey was not added: the request was cancelled or timed out.',
  unsupported: 'This browser cannot create passkeys.',
  defaultName: 'Passkey',
  sessionsHeading: 'Sessions',
  sessionsText: 'Signed in on a device you no longer have? End every session, this one included.',
  signOutEverywhere: 'Sign out everywhere',
  signOutEverywhereTitle: 'Sign out everywhere?',
  signOutEverywhereText: 'Every session ends, this one included. You will need to sign in again.',
  tableLabel: 'Passkeys',
};

/** The console's pages, in the order of its navigation. */
export const subscribersCopy = {
  title: 'Subscribers',
  intro: 'Newsletter subscribers by status. Guide leads are the guide downloads in the inbox.',
  tabsLabel: 'Subscriber status',
  statuses: {
    confirmed: 'Confirmed',
    pending: 'Waiting for confirmation',
    unsubscribed: 'Unsubscribed',
  } as Record<string, string>,
  guideLeads: 'See guide leads in the inbox',
  download: 'Download confirmed subscribers (CSV)',
  suppressionLink: 'See the suppression list',
  name: 'Name',
  email: 'Email',
  since: 'Signed up',
  confirmed: 'Confirmed',
  unsubscribed: 'Unsubscribed',
  empty: 'No subscribers with this status.',
  count: (n: number, more: boolean) =>
    `${n} subscriber${n === 1 ? '' : 's'} shown${more ? ', more are older' : ''}.`,
  tableLabel: 'Subscribers, newest first',
  older: 'Older',
  newest: 'Newest',
};

export const suppressionCopy = {
  title: 'Suppression list',
  intro:
    'Addresses that are never written to again (people who unsubscribed or were erased), kept only as a keyed hash: the list holds no address.',
  hash: 'Keyed hash',
  reason: 'Reason',
  since: 'Since',
  reasons: { erased: 'Erased', unsubscribed: 'Unsubscribed' } as Record<string, string>,
  empty: 'Nobody is on the suppression list.',
  tableLabel: 'Suppressed address hashes, newest first',
  older: 'Older',
  newest: 'Newest',
};

export const peopleCopy = {
  title: 'People',
  intro:
    'Type an e-mail address to see everything held about that person, download it as one file (a subject access request), or erase it.',
  email: 'Email address',
  find: 'Find',
  nothing: 'Nothing is held about this address.',
  suppressed: 'This address is on the suppression list: nothing will be e-mailed to it.',
  notSuppressed: 'This address is not on the suppression list.',
  held: (n: number) => `${n} record${n === 1 ? '' : 's'} held about this person.`,
  submissions: 'Submissions',
  consents: 'Consents',
  bookings: 'Bookings',
  newsletter: 'Newsletter',
  emails: 'E-mails',
  emlFiles: 'E-mail files',
  textRemoved: 'text removed',
  download: 'Download (JSON)',
  erase: 'Erase',
  eraseTitle: 'Erase this person?',
  eraseText: (email: string, n: number) =>
    `Every record about ${email} (${n} in all: submissions, consents, bookings, newsletter, e-mails and their files) will be deleted, and the address kept only as a keyed hash on the suppression list so that nothing is e-mailed to it again. This cannot be undone.`,
  erased: (c: {
    submissions: number;
    bookings: number;
    subscriptions: number;
    emails: number;
    emlFiles: number;
  }) =>
    `Erased: ${c.submissions} submissions, ${c.bookings} bookings, ${c.subscriptions} newsletter records, ${c.emails} e-mails and ${c.emlFiles} e-mail files. The address is on the suppression list.`,
};

export const retentionCopy = {
  title: 'Retention',
  intro: 'Once a day the server deletes what the privacy notice says it keeps no longer.',
  periods: 'Periods',
  contact: (n: number) => `Contact messages: ${n} months after they arrive.`,
  bookings: (n: number) => `Bookings: ${n} months after the session.`,
  spam: (n: number) => `Held as spam: ${n} days after it arrives.`,
  emails: (n: number) => `E-mail text: ${n} days after sending (the record that it was sent stays).`,
  unsubscribed: 'Unsubscribed readers: reduced to a keyed hash on the suppression list.',
  runs: 'Last runs',
  runNow: 'Run now',
  ran: 'Retention ran.',
  started: 'Started',
  finished: 'Finished',
  removed: 'Removed',
  running: 'Running',
  none: 'No run yet.',
  tableLabel: 'Retention runs, newest first',
  countLabels: {
    spam: 'spam',
    contact: 'contact messages',
    bookings: 'bookings',
    unsubscribed: 'unsubscribed readers',
    emailBodies: 'e-mail texts',
    emlFiles: 'e-mail files',
  } as Record<string, string>,
};

export const consoleNav = [
  { path: '', label: 'Overview' },
  { path: 'inbox', label: 'Inbox' },
  { path: 'spam', label: 'Spam' },
  { path: 'bookings', label: 'Bookings' },
  { path: 'deliveries', label: 'Deliveries' },
  { path: 'subscribers', label: 'Subscribers' },
  { path: 'people', label: 'People' },
  { path: 'retention', label: 'Retention' },
  { path: 'audit', label: 'Audit log' },
  { path: 'security', label: 'Security' },
] as const;

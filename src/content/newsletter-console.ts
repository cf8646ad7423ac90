/**
 * The words of the console's Newsletter pages (decision 046): the list of issues, starting one
 * from an article, the editor, its preview as sent, the test, sending now or at a UK time, and
 * the progress of an issue going out.
 */

const number = (n: number) => n.toLocaleString('en-GB');
const counted = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

/** What became of an issue's recipients (the console contract's IssueProgress). */
type Progress = {
  recipients: number;
  sent: number;
  waiting: number;
  failed: number;
  bounced: number;
  suppressed: number;
  cancelled: number;
  unsubscribed: number;
};

export const newsletterIssuesCopy = {
  // The list.
  title: 'Newsletter',
  intro:
    'Write an issue of The Smart Money Newsletter, preview it as subscribers receive it, send yourself a test, then send it to every confirmed subscriber now or at a UK time.',
  newIssue: 'New issue',
  subscribersLink: 'See the subscribers',
  issuesHeading: 'Issues',
  empty: 'No issues yet. Write one with “New issue”, or start one from an article.',
  count: (n: number) => `${counted(n, 'issue', 'issues')}.`,
  tableLabel: 'Issues, newest first',
  subject: 'Subject',
  status: 'Status',
  scheduledFor: 'Scheduled for',
  startedAt: 'Started',
  finishedAt: 'Finished',
  progress: 'Progress',
  statuses: {
    draft: 'Draft',
    scheduled: 'Scheduled',
    sending: 'Sending',
    paused: 'Paused',
    sent: 'Sent',
    cancelled: 'Cancelled',
  } as Record<string, string>,
  /** A short line of an issue's progress: "120 of 300 sent, 180 waiting, 2 failed". */
  progressLine: (p: Progress) =>
    [
      `${number(p.sent)} of ${number(p.recipients)} sent`,
      ...(
        [
          [p.waiting, 'waiting'],
          [p.failed, 'failed'],
          [p.bounced, 'bounced'],
          [p.suppressed, 'suppressed'],
          [p.cancelled, 'cancelled'],
          [p.unsubscribed, 'unsubscribed'],
        ] as const
      )
        .filter(([n]) => n > 0)
        .map(([n, word]) => `${number(n)} ${word}`),
    ].join(', '),

  // Start from an article.
  fromArticleHeading: 'Start from an article',
  fromArticleIntro: 'A new draft filled from an article of the site, with a link to it.',
  article: 'Article',
  articleOption: (title: string, date: string) => `${title} (${date})`,
  noArticles: 'There are no articles to start from.',
  fromArticle: 'Start from this article',
  fromArticleBusy: 'Starting…',
  fromArticleDone: (title: string) => `Draft started from “${title}”.`,

  // One issue's page.
  back: 'Back to the newsletter',
  issueFallback: 'Issue',
  newTitle: 'New issue',
  newIntro: 'Saved as a draft: nothing is sent until you send it.',
  detailsHeading: 'About this issue',
  createdAt: 'Created',
  updatedAt: 'Last saved',
  articleSlug: 'Started from the article',
  ukTime: (when: string) => `${when} (UK time)`,
  readOnly: {
    sending: 'This issue is being sent: it can no longer be changed.',
    paused: 'Sending is paused: the issue can no longer be changed.',
    sent: 'This issue has been sent: it can no longer be changed.',
    cancelled: 'This issue was cancelled: it can no longer be changed.',
  } as Record<string, string>,

  // The form.
  writeHeading: 'Write',
  subjectLabel: 'Subject',
  subjectHint: (max: number) => `up to ${number(max)} characters`,
  preheaderLabel: 'Preview line',
  preheaderHint: (max: number) => `shown after the subject in most inboxes; up to ${number(max)} characters`,
  bodyLabel: 'Body',
  bodyHint: (max: number) => `Markdown; up to ${number(max)} characters`,
  saveDraft: 'Save draft',
  saveChanges: 'Save changes',
  saving: 'Saving…',
  created: 'Draft saved.',
  saved: 'Changes saved.',
  unsaved:
    'You have unsaved changes. Save them first: the preview, the test and sending use the saved issue.',

  // The preview.
  previewHeading: 'Preview',
  previewIntro:
    'The e-mail exactly as a subscriber receives it, from the last saved version. The personal links (unsubscribe) are examples.',
  previewSubject: 'Subject',
  previewPreheader: 'Preview line',
  desktop: 'At desktop width (600 pixels)',
  phone: 'At phone width (375 pixels)',
  desktopFrame: 'The e-mail at desktop width',
  phoneFrame: 'The e-mail at phone width',
  plainText: 'The plain-text part',

  // Sending.
  sendHeading: 'Send',
  testIntro: 'A test goes to the console’s own addresses at once, marked as a test.',
  sendTest: 'Send a test',
  sendingTest: 'Sending the test…',
  testSent: (n: number) => `Test sent to ${counted(n, 'address', 'addresses')}.`,
  sendNowIntro:
    'Sending goes to every confirmed subscriber at that moment, leaving out unsubscribed and suppressed addresses.',
  sendNow: 'Send now',
  sendNowTitle: 'Send this issue to every confirmed subscriber now?',
  sendNowText:
    'It starts at once and goes out a few e-mails at a time to every confirmed subscriber, leaving out unsubscribed and suppressed addresses. You can pause or cancel it while it is sending.',
  notYet: 'Not yet',
  starting: 'Starting…',
  started: 'Sending has started.',
  scheduleHeading: 'Or send it later',
  sendAt: 'Send at',
  sendAtHint: 'UK time',
  chooseTime: 'Please choose the date and time to send it.',
  schedule: 'Schedule',
  scheduling: 'Scheduling…',
  scheduled: (when: string) => `Scheduled for ${when} (UK time).`,
  scheduledNote: (when: string) =>
    `Scheduled: it goes out on ${when} (UK time). Change the time below, send it now, or unschedule it to keep it as a draft.`,
  unschedule: 'Unschedule',
  unscheduling: 'Unscheduling…',
  unscheduled: 'Unscheduled: the issue is a draft again.',

  // Its progress.
  progressHeading: 'Progress',
  progressLabel: 'Sending progress',
  handled: (handled: number, recipients: number) =>
    `${number(handled)} of ${counted(recipients, 'recipient', 'recipients')} handled.`,
  noRecipients: 'There were no confirmed subscribers to send it to.',
  counts: {
    recipients: 'Recipients',
    sent: 'Sent',
    waiting: 'Waiting',
    failed: 'Failed',
    bounced: 'Bounced',
    suppressed: 'Suppressed',
    cancelled: 'Cancelled',
    unsubscribed: 'Unsubscribed',
  } satisfies Record<keyof Progress, string>,
  countHints: {
    recipients: 'the confirmed subscribers when sending began',
    waiting: 'still to go',
    failed: 'refused for good, or given up after retries',
    bounced: 'of those sent or failed: the mailbox is gone',
    suppressed: 'not sent: unsubscribed, erased or on the suppression list by then',
    cancelled: 'not sent: the issue was cancelled first',
    unsubscribed: 'unsubscribed after this issue reached them',
  } as Partial<Record<keyof Progress, string>>,
  pause: 'Pause',
  pausing: 'Pausing…',
  paused: 'Sending is paused. Nobody else is sent it until you resume.',
  resume: 'Resume',
  resuming: 'Resuming…',
  resumed: 'Sending has resumed.',
  cancelSending: 'Cancel sending',
  cancelTitle: 'Cancel sending this issue?',
  cancelText: 'Nobody who has not been sent it yet will receive it. This cannot be undone.',
  keepSending: 'Keep sending',
  cancelled: 'Sending is cancelled: nobody else will receive this issue.',
  finished: (sent: number) => `The issue has been sent: ${counted(sent, 'e-mail', 'e-mails')} went out.`,
  siteHeading: 'On the site',
  siteIntro:
    'Put this issue on the site’s newsletter archive (/newsletter), where anyone can read it, in the sitemap and in the archive’s feed. Only its text goes there: no reader’s unsubscribe link.',
  siteOn: 'This issue is on the site at',
  putOnSite: 'Put on the site',
  puttingOnSite: 'Putting on the site…',
  putOnSiteTitle: 'Put this issue on the site?',
  putOnSiteText:
    'Anyone will be able to read it at its own address, listed on the newsletter archive. You can take it off again.',
  putOnSiteDone: 'The issue is on the site.',
  takeOffSite: 'Take off the site',
  takingOffSite: 'Taking off the site…',
  takeOffSiteTitle: 'Take this issue off the site?',
  takeOffSiteText:
    'Its page and its line of the archive go at once; a link to it will find nothing. Putting it back keeps its address.',
  takeOffSiteDone: 'The issue is no longer on the site.',
  keepOnSite: 'Keep it there',
  notNow: 'Not now',
};

/**
 * The words of the console's Articles pages (decision 047): the list, the editor with its live
 * preview, the cover image (decision 050), publishing now or at a UK time, unpublishing, and the
 * saved versions.
 */

const number = (n: number) => n.toLocaleString('en-GB');
const counted = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

export const articlesCopy = {
  // The list.
  title: 'Articles',
  intro:
    'Write the articles of the site’s Resources, preview them in the site’s own style as you type, and publish them now or at a UK time. Every save is kept: you can look at an earlier one and restore it.',
  newArticle: 'New article',
  listHeading: 'All articles',
  empty: 'No articles yet. Write one with “New article”.',
  count: (n: number) => `${counted(n, 'article', 'articles')}.`,
  tableLabel: 'Articles, newest date first',
  articleTitle: 'Title',
  status: 'Status',
  date: 'Date',
  taxYear: 'Tax year',
  live: 'Published or scheduled',
  updatedAt: 'Last saved',
  statuses: {
    draft: 'Draft',
    scheduled: 'Scheduled',
    published: 'Published',
    unpublished: 'Unpublished',
  } as Record<string, string>,
  datedFigures: 'Dated figures',
  /** What the badge means, for a screen reader and a tooltip. */
  datedFiguresHint: (taxYear: string) =>
    `Its figures are of the ${taxYear} tax year, before the current one: check them.`,
  noTaxYear: 'None',
  scheduledFor: (when: string) => `Goes live ${when} (UK time)`,
  publishedOn: (when: string) => `Since ${when}`,

  // One article's page.
  back: 'Back to the articles',
  articleFallback: 'Article',
  newTitle: 'New article',
  newIntro: 'Saved as a draft: nothing is published until you publish it.',
  detailsHeading: 'About this article',
  version: 'Version',
  firstPublished: 'First published',
  scheduledAt: 'Goes live',
  ukTime: (when: string) => `${when} (UK time)`,
  publicLink: 'On the site',
  createdAt: 'Created',
  datedNote: (taxYear: string, current: string) =>
    `This article quotes the figures of the ${taxYear} tax year; the current UK tax year is ${current}. Check its figures, then change its tax year.`,

  // The form.
  writeHeading: 'Write',
  titleLabel: 'Title',
  titleHint: (max: number) => `up to ${number(max)} characters`,
  summaryLabel: 'Summary',
  summaryHint: (max: number) =>
    `shown in the list of articles and under the title; up to ${number(max)} characters`,
  slugLabel: 'Address',
  slugHint: (max: number) =>
    `the end of the page’s address, /resources/articles/…: lower-case words joined by hyphens; up to ${number(max)} characters`,
  slugPublishedHint: (max: number) =>
    `the end of the page’s address, /resources/articles/…: lower-case words joined by hyphens; up to ${number(max)} characters. It is published: a new address keeps the old one leading to it`,
  dateLabel: 'Date',
  dateHint: 'the date the article shows',
  taxYearLabel: 'Tax year',
  taxYearHint: 'of the figures it quotes, as 2025-26; leave empty if it quotes none',
  bodyLabel: 'Text',
  bodyHint: (max: number) =>
    `Markdown: ## for a heading, **bold**, [words](https://…) for a link; raw HTML is shown as text; up to ${number(max)} characters`,
  save: 'Save',
  saveDraft: 'Save draft',
  saving: 'Saving…',
  created: 'Draft saved.',
  saved: 'Saved.',
  savedLive: 'Saved. The site shows the new version.',
  unsaved: 'You have unsaved changes. Save them first: publishing and restoring act on the saved article.',
  /** A save refused because another tab or window saved since (the server's sentence is shown as well). */
  staleHeading: 'Not saved',

  // The live preview.
  previewHeading: 'Preview',
  previewIntro: 'As the article’s page shows it, updated as you type (nothing is saved until you save).',
  previewLabel: 'Preview of the article',
  previewEmpty: 'Start writing: the preview shows the text here.',
  previewFailed: 'The preview could not be updated.',
  previewMeta: (date: string, minutes: number) => `${date} · ${minutes} min read`,
  previewWords: (words: number) => `${counted(words, 'word', 'words')}.`,

  // Publishing.
  publishHeading: 'Publish',
  draftNote: 'This article is a draft: the site does not show it.',
  unpublishedNote: 'This article is unpublished: the site does not show it. You can publish it again.',
  publishedNote:
    'This article is published: the site shows it, in the list of articles, the feed and the sitemap.',
  scheduledNote: (when: string) =>
    `Scheduled: it goes live on ${when} (UK time). Change the time below, publish it now, or unschedule it to keep it as a draft.`,
  publishNow: 'Publish now',
  publishTitle: 'Publish this article now?',
  publishText:
    'The saved version goes on the site at once: its page, the list of articles, the feed and the sitemap.',
  notYet: 'Not yet',
  publishing: 'Publishing…',
  published: 'Published. The site shows it now.',
  scheduleHeading: 'Or publish it later',
  publishAt: 'Publish at',
  publishAtHint: 'UK time',
  chooseTime: 'Please choose the date and time to publish it.',
  schedule: 'Schedule',
  scheduling: 'Scheduling…',
  scheduled: (when: string) => `Scheduled for ${when} (UK time).`,
  unschedule: 'Unschedule',
  unscheduling: 'Unscheduling…',
  unscheduled: 'Unscheduled: the article is a draft again.',
  unpublish: 'Unpublish',
  unpublishTitle: 'Take this article off the site?',
  unpublishText:
    'Its page, its place in the list of articles, the feed and the sitemap go. It stays here, and you can publish it again.',
  keepPublished: 'Keep it published',
  unpublishing: 'Unpublishing…',
  unpublished: 'Unpublished: the site no longer shows it.',

  // The cover image (decision 050).
  coverHeading: 'Cover image',
  coverIntro:
    'Shown at the top of the article’s page, and by the link when the article is shared. The site makes the smaller copies phones need, in modern formats, itself.',
  noCover: 'No cover yet.',
  coverSize: (width: number, height: number) => `Its largest copy: ${width} × ${height} pixels.`,
  coverFileLabel: 'Image',
  coverReplaceLabel: 'New image (optional)',
  coverAltLabel: 'Description (alt text)',
  coverAltHint: (max: number) =>
    `what the image shows, for readers who cannot see it; required with a cover; up to ${number(max)} characters`,
  uploadCover: 'Upload cover',
  saveCover: 'Save cover',
  savingCover: 'Saving the cover…',
  coverSaved: 'The cover is saved.',
  coverSavedLive: 'The cover is saved. The article’s page shows it now.',
  removeCover: 'Remove cover',
  removeCoverTitle: 'Remove the cover?',
  removeCoverText:
    'The article goes on without a cover image; if it is published, its page shows none from now on. You can upload another at any time.',
  keepCover: 'Keep it',
  removingCover: 'Removing…',
  coverRemoved: 'The cover is removed.',

  // The saved versions.
  revisionsHeading: 'Saved versions',
  revisionsIntro:
    'Every save, newest first. Restoring one saves its words as a new version; nothing is lost.',
  revisionsLabel: 'Saved versions, newest first',
  revisionsCount: (n: number) => `${counted(n, 'saved version', 'saved versions')}.`,
  revisionVersion: 'Version',
  revisionSaved: 'Saved',
  revisionBy: 'By',
  revisionTitle: 'Title',
  revisionActions: 'Actions',
  current: 'Current',
  importedBy: 'Imported from the site’s files',
  view: 'View',
  viewLabel: (version: number) => `View version ${version}`,
  hide: 'Close',
  restore: 'Restore',
  restoreLabel: (version: number) => `Restore version ${version}`,
  restoreTitle: (version: number) => `Restore version ${version}?`,
  restoreText:
    'Its title, summary, address, date, tax year and text are saved as a new version; the cover image stays as it is. The current version stays in the list, so you can come back to it.',
  restoring: 'Restoring…',
  restored: (from: number, to: number) => `Version ${from} restored as version ${to}.`,
  revisionHeading: (version: number) => `Version ${version}`,
  revisionSavedBy: (when: string, who: string) => `Saved ${when} by ${who}.`,
};

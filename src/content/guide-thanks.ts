/**
 * The guide form's words after a successful request (spec sections 8 and 9): the toast and the
 * Thank You view. A module apart from the form's own words (./guide.ts): only the view shown
 * after sending uses them, so they travel in the chunk the form fetches on first use, not in
 * the home page's first load (decision 006).
 */
export const guideThanks = {
  downloading: 'Your guide is downloading!',
  downloadingDetail: 'If it does not open, use the direct link below.',
  heading: 'Thank You',
  text: 'Your Wealth Building Guide is opening in a new tab. If it did not open, use the direct link below. We also e-mail you the link, once a day at most; if your address once asked us to delete its details or stop writing, we e-mail you first to confirm it.',
  link: 'Download the guide (PDF)',
};

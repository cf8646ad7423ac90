/**
 * The Wealth Building Guide download form's words (spec sections 7 and 8). A module of its own,
 * imported by the form alone, so it travels in the form's chunk on the home page.
 */
export const guideForm = {
  label: 'Download the Wealth Building Guide',
  fields: { firstName: 'Full Name', email: 'Email Address', company: 'Current Role or Company' },
  submit: 'Download Free Guide',
  submitting: 'Processing...',
  downloading: 'Your guide is downloading!',
  downloadingDetail: 'If it does not open, use the direct link below.',
  failed: 'Failed to submit request. Please try again.',
  thanks: {
    heading: 'Thank You',
    text: 'Your Wealth Building Guide is opening in a new tab. If it did not open, use the direct link below. We also e-mail you the link, once a day at most; if your address once asked us to delete its details or stop writing, we e-mail you first to confirm it.',
    link: 'Download the guide (PDF)',
  },
};

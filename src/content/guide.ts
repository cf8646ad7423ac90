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
  downloadingDetail: 'A copy of the link is on its way to your inbox.',
  failed: 'Failed to submit request. Please try again.',
  thanks: {
    heading: 'Thank You',
    text: 'Your Wealth Building Guide is opening in a new tab, and we have e-mailed you the link too. If it did not open, use the direct link below.',
    link: 'Download the guide (PDF)',
  },
};

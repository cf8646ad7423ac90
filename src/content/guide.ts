/**
 * The Wealth Building Guide download form's words (spec sections 7 and 8). A module of its own,
 * imported by the form alone, so it travels in the form's chunk on the home page. The words
 * shown after a successful request are in ./guide-thanks.ts, fetched with the form's logic.
 */
export const guideForm = {
  label: 'Download the Wealth Building Guide',
  fields: { firstName: 'Full Name', email: 'Email Address', company: 'Current Role or Company' },
  submit: 'Download Free Guide',
  submitting: 'Processing...',
  failed: 'Failed to submit request. Please try again.',
};

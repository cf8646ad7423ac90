/** Where a lead stands for the owner (decision 040): new until someone replies or puts it aside. */
export const LEAD_STATES = ['new', 'replied', 'handled'] as const;
export type LeadState = (typeof LEAD_STATES)[number];

export const leadStateLabels: Record<LeadState, string> = {
  new: 'New',
  replied: 'Replied',
  handled: 'Handled',
};

/**
 * The forms whose submissions are leads, someone to answer: a message and a session request. A
 * guide download, a newsletter sign-up and a masterclass registration are in their own screens
 * and in the person's history, and arrive as no lead at all (decision 054).
 */
export const LEAD_FORMS: readonly string[] = ['contact', 'booking'];

/** Where a new submission of `formType` stands: a new lead, or none. */
export const leadStateOnArrival = (formType: string): LeadState | null =>
  LEAD_FORMS.includes(formType) ? 'new' : null;

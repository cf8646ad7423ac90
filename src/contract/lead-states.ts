/** Where a lead stands for the owner (decision 040): new until someone replies or puts it aside. */
export const LEAD_STATES = ['new', 'replied', 'handled'] as const;
export type LeadState = (typeof LEAD_STATES)[number];

export const leadStateLabels: Record<LeadState, string> = {
  new: 'New',
  replied: 'Replied',
  handled: 'Handled',
};

/**
 * Every price the site shows, set once.
 *
 * OWNER TO SETTLE: the spec gives two conflicting readings for two offers, and does not say
 * which applies where. Until the owner decides, each figure is shown exactly where the spec
 * places it:
 *  1. AI coaching: £97 per month, cancel anytime, on the home page plan card; but £49 per
 *     month or £495 per year (save 15%) for the AI coaching app on the services and AI pages.
 *  2. Team training: "from £5k per month" on the services Team & Enterprise card (and the
 *     home plan card that leads to it); but "up to 10 people, flat fee £1,995" on the booking
 *     page.
 * Changing a figure here changes it everywhere it appears.
 */
export const prices = {
  strategySession: { amount: 'Free', note: '45 minutes, one to one' },

  /** Conflict 1, first reading: the home page plan card. */
  aiCoachingPlan: { amount: '£97', note: 'per month, cancel anytime' },
  /** Conflict 1, second reading: the services card and the AI coaching page. */
  aiCoachingApp: { amount: '£49', note: 'per month, or £495 per year (save 15%)' },

  /** Conflict 2, first reading: the services Team & Enterprise card and the home plan card. */
  teamEnterprise: { amount: 'From £5k', note: 'per month' },
  /** Conflict 2, second reading: the booking page's team training. */
  teamTrainingFlatFee: { amount: '£1,995', note: 'flat fee, up to 10 people' },

  financialIndependenceCircle: { amount: 'By invitation', note: 'for clients who have completed a session' },
  discoveryCall: { amount: 'Complimentary', note: '15 minutes' },
} as const;

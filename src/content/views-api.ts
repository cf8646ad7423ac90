/**
 * The beacon's address (decision 042), alone in its module: the beacon is in every page's first
 * load, and must not bring the rest of the counting's words with it.
 */
export const VIEWS_API = '/api/views';

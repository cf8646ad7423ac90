/** The bank holidays of England and Wales of one year, as the date-holidays library computes them. */
export const FIRST_YEAR: number;
export const LAST_YEAR: number;
export function bankHolidaysOf(year: number): { date: string; name: string }[];

/** The bank holidays of England and Wales of one year, as the date-holidays library computes them. */
import Holidays from 'date-holidays';

export const FIRST_YEAR = 2024;
export const LAST_YEAR = 2040;

const england = new Holidays('GB', 'ENG');

/** [{date: 'YYYY-MM-DD', name}] of the year's public holidays (substitute days included), by date. */
export function bankHolidaysOf(year) {
  return england
    .getHolidays(year)
    .filter((h) => h.type === 'public')
    .map((h) => ({ date: h.date.slice(0, 10), name: h.name }))
    .sort((a, b) => a.date.localeCompare(b.date));
}

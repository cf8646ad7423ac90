/**
 * Writes src/content/bank-holidays.json: the bank holidays of England and Wales, from the
 * date-holidays library (its GB rules, region ENG), for the years the booking window can reach.
 * The library stays a development dependency: loading it costs the server about 20 MB, so the
 * server reads this file instead (decision 036). A unit test recomputes every year from the
 * library, so an updated library or an edited file fails it until this script is run again:
 *   node scripts/bank-holidays.mjs
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bankHolidaysOf, FIRST_YEAR, LAST_YEAR } from './bank-holidays-of.mjs';

const target = fileURLToPath(new URL('../src/content/bank-holidays.json', import.meta.url));
const days = [];
for (let year = FIRST_YEAR; year <= LAST_YEAR; year += 1) days.push(...bankHolidaysOf(year));
writeFileSync(
  target,
  `${JSON.stringify({ source: 'date-holidays GB-ENG', firstYear: FIRST_YEAR, lastYear: LAST_YEAR, days }, null, 2)}\n`,
);
console.log(`bank holidays: ${days.length} days, ${FIRST_YEAR}-${LAST_YEAR}`);

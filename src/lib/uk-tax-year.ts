/**
 * The UK tax year: from 6 April to 5 April of the next year, UK time, written as the year it
 * starts and the last two digits of the year it ends ('2025-26' runs from 6 April 2025 to
 * 5 April 2026). An article that quotes the figures of a tax year before the current one has
 * dated figures (decision 047).
 */
import { ukDateOf } from './uk-dates';

const TAX_YEAR = /^(\d{4})-(\d{2})$/;

/** '2025-26': four digits, a hyphen, and the last two digits of the next year. */
export function isTaxYear(value: string): boolean {
  const m = TAX_YEAR.exec(value);
  return !!m && Number(m[2]) === (Number(m[1]) + 1) % 100;
}

/** The tax year that starts in `year`: 2025 -> '2025-26'. */
export function taxYearStarting(year: number): string {
  return `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
}

/** The UK tax year an instant falls in: from 6 April (UK date) it is the one starting that year. */
export function ukTaxYearOf(instant: Date): string {
  const today = ukDateOf(instant);
  const year = Number(today.slice(0, 4));
  return taxYearStarting(today.slice(5) >= '04-06' ? year : year - 1);
}

/** Whether `taxYear` ('2024-25') is before the UK tax year of `now`: its figures are dated. */
export function isBeforeCurrentTaxYear(taxYear: string | null | undefined, now: Date): boolean {
  if (!taxYear || !isTaxYear(taxYear)) return false;
  return Number(taxYear.slice(0, 4)) < Number(ukTaxYearOf(now).slice(0, 4));
}

import { describe, expect, it } from 'vitest';
import { isBeforeCurrentTaxYear, isTaxYear, taxYearStarting, ukTaxYearOf } from './uk-tax-year';

describe('the UK tax year', () => {
  it('reads a tax year only as the year it starts and the next year’s last two digits', () => {
    expect(isTaxYear('2025-26')).toBe(true);
    expect(isTaxYear('1999-00')).toBe(true);
    expect(isTaxYear('2025-27')).toBe(false);
    expect(isTaxYear('2025-25')).toBe(false);
    expect(isTaxYear('2025/26')).toBe(false);
    expect(isTaxYear('25-26')).toBe(false);
    expect(isTaxYear('2025-2026')).toBe(false);
    expect(taxYearStarting(2099)).toBe('2099-00');
    expect(taxYearStarting(2008)).toBe('2008-09');
  });

  it('starts on 6 April, UK time (BST: 23:00 UTC on 5 April is already the 6th)', () => {
    // 5 April 2026, 23:59 in London (BST, UTC+1) is 22:59 UTC: still 2025-26.
    expect(ukTaxYearOf(new Date('2026-04-05T22:59:00Z'))).toBe('2025-26');
    // 6 April 2026, 00:00 in London is 23:00 UTC on the 5th: 2026-27 begins.
    expect(ukTaxYearOf(new Date('2026-04-05T23:00:00Z'))).toBe('2026-27');
    expect(ukTaxYearOf(new Date('2026-04-06T12:00:00Z'))).toBe('2026-27');
    expect(ukTaxYearOf(new Date('2025-04-06T00:00:00+01:00'))).toBe('2025-26');
    expect(ukTaxYearOf(new Date('2025-04-05T23:59:59+01:00'))).toBe('2024-25');
  });

  it('runs to 5 April of the next year, across New Year', () => {
    expect(ukTaxYearOf(new Date('2025-12-31T23:59:00Z'))).toBe('2025-26');
    expect(ukTaxYearOf(new Date('2026-01-01T00:00:00Z'))).toBe('2025-26');
    expect(ukTaxYearOf(new Date('2026-03-29T12:00:00Z'))).toBe('2025-26');
  });

  it('flags the figures of a tax year before the current one as dated', () => {
    const lastDayOf202526 = new Date('2026-04-05T12:00:00+01:00');
    const firstDayOf202627 = new Date('2026-04-06T00:30:00+01:00');
    expect(isBeforeCurrentTaxYear('2025-26', lastDayOf202526)).toBe(false);
    expect(isBeforeCurrentTaxYear('2024-25', lastDayOf202526)).toBe(true);
    expect(isBeforeCurrentTaxYear('2025-26', firstDayOf202627)).toBe(true);
    expect(isBeforeCurrentTaxYear('2026-27', firstDayOf202627)).toBe(false);
    // A later year (figures announced ahead) is not dated; none, or a malformed one, is not either.
    expect(isBeforeCurrentTaxYear('2027-28', firstDayOf202627)).toBe(false);
    expect(isBeforeCurrentTaxYear(null, firstDayOf202627)).toBe(false);
    expect(isBeforeCurrentTaxYear('', firstDayOf202627)).toBe(false);
    expect(isBeforeCurrentTaxYear('2020-22', firstDayOf202627)).toBe(false);
  });
});

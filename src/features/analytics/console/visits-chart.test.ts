/** The Visits chart's axis writes dates the UK way: day before month. */
import uPlot from 'uplot';
import { expect, test } from 'vitest';
import { ukDateTemplate } from './visits-chart';

test("uPlot's date templates become day before month", () => {
  const seventhOfDecember = new Date(Date.UTC(2026, 11, 7, 15));
  const utc = (template: string) =>
    uPlot.fmtDate(ukDateTemplate(template))(uPlot.tzDate(seventhOfDecember, 'Etc/UTC'));
  expect(utc('{M}/{D}/{YY}')).toBe('7/12/26');
  expect(utc('{M}/{D}')).toBe('7/12');
  expect(utc('{h}{aa}')).toBe('3pm');
});

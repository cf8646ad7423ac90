/**
 * Visits credit the right sources (decision 042, addendum): referrers and UTM tags are counted
 * per visit, kept together, so a visitor who came from two places is under both with each visit's
 * own views, and a source never lends its views to another visit's campaign. A visitor is an
 * address and a kind of device: a user agent that changes does not make more visitors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitorOf } from '../../src/features/analytics/counting.server';
import { figuresFromViews } from '../../src/features/analytics/rollup.server';
import { makeFormsApp, type FormsTestApp } from './forms-support';

const DAY = '2026-11-30';

describe('visits attributed per visit', () => {
  let t: FormsTestApp;
  beforeAll(async () => {
    t = await makeFormsApp();
  });
  afterAll(async () => {
    await t?.app.close();
  });

  it('keeps each visit’s referrer and tags together, and credits each its own views', async () => {
    // In the order they came: visitor 1 from google.com (2 views), later from duckduckgo.com (3);
    // visitor 2 from the newsletter (2 views), later from an ad campaign "winter" (1 view).
    const views: [number, string, string, string, string][] = [
      [1, 'google.com', '', '', ''],
      [1, '', '', '', ''],
      [1, 'duckduckgo.com', '', '', ''],
      [1, '', '', '', ''],
      [1, '', '', '', ''],
      [2, '', 'newsletter', 'email', ''],
      [2, '', '', '', ''],
      [2, 'ads.example.com', 'ads', 'cpc', 'winter'],
      // Visitor 3 typed the address in: a visit from nowhere.
      [3, '', '', '', ''],
    ];
    for (const [visitor, referrer, source, medium, campaign] of views)
      await t.query(
        `insert into analytics_views (day, hour, visitor, path, referrer, utm_source, utm_medium, utm_campaign, device)
         values ('${DAY}', 10, ${visitor}, '/', '${referrer}', '${source}', '${medium}', '${campaign}', 'desktop')`,
      );
    const { days, rows } = await figuresFromViews(t.app.services.database.db, DAY, DAY);
    expect(days).toEqual([{ day: DAY, visitors: 3, views: 9 }]);
    const of = (dimension: string) =>
      Object.fromEntries(
        rows.filter((r) => r.dimension === dimension).map((r) => [r.value, [r.visitors, r.views]]),
      );
    expect(of('referrer')).toEqual({
      'google.com': [1, 2],
      'duckduckgo.com': [1, 3],
      'ads.example.com': [1, 1],
      // The newsletter's visit (tags, no referrer) and the typed-in one.
      '': [2, 3],
    });
    expect(of('source')).toEqual({ newsletter: [1, 2], ads: [1, 1] });
    expect(of('medium')).toEqual({ email: [1, 2], cpc: [1, 1] });
    // "winter" is the ads visit's alone: never the newsletter's views.
    expect(of('campaign')).toEqual({ winter: [1, 1] });
  });

  it('one address and kind of device is one visitor, whatever its user agent says', () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const iphone =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
    const a = visitorOf('site', 'salt', '203.0.113.9', chrome);
    expect(visitorOf('site', 'salt', '203.0.113.9', firefox)).toBe(a);
    expect(visitorOf('site', 'salt', '203.0.113.9', `${chrome} Extra/1`)).toBe(a);
    // A phone on the same connection is another visitor; so is another address, or another day.
    expect(visitorOf('site', 'salt', '203.0.113.9', iphone)).not.toBe(a);
    expect(visitorOf('site', 'salt', '203.0.113.10', chrome)).not.toBe(a);
    expect(visitorOf('site', 'other-salt', '203.0.113.9', chrome)).not.toBe(a);
  });
});

import { describe, expect, it } from 'vitest';
import { planCards } from './home';
import { prices } from './prices';
import { PUBLIC_PATHS } from './routes';
import { offers } from './services';
import { footerLinks, legalLinks, navCta, navLinks } from './site';

describe('prices', () => {
  it('keep both readings of each conflict, where the spec places them', () => {
    expect(planCards.find((p) => p.link === '/ai')?.price).toBe('£97');
    expect(offers.find((o) => o.title === 'AI Mobile App')?.price).toBe('£49');
    expect(prices.aiCoachingApp.note).toContain('£495 per year (save 15%)');
    expect(offers.find((o) => o.title === 'Team & Enterprise')?.price).toBe('From £5k');
    expect(prices.teamTrainingFlatFee.amount).toBe('£1,995');
  });

  it('the yearly app price saves what its note says against twelve monthly payments', () => {
    const pounds = (text: string) => Number(/£([\d,]+)/.exec(text)![1]!.replace(',', ''));
    const monthly = pounds(prices.aiCoachingApp.amount);
    const yearly = pounds(/or (£[\d,]+) per year/.exec(prices.aiCoachingApp.note)![1]!);
    const claimed = Number(/save (\d+)%/.exec(prices.aiCoachingApp.note)![1]);
    // "Save 15%" is honest when the saving is at least 15% (it is 15.8%), and not 16% or more.
    const saving = (1 - yearly / (monthly * 12)) * 100;
    expect(Math.floor(saving)).toBe(claimed);
  });
});

describe('links', () => {
  it('point only at pages that exist', () => {
    for (const link of [...navLinks, navCta, ...footerLinks, ...legalLinks, ...planCards, ...offers].map(
      (l) => ('to' in l ? l.to : l.link),
    )) {
      expect(PUBLIC_PATHS, link).toContain(link.split('#')[0]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { backupsToKeep, takenAt } from './keep';
import { lastDue } from './service';
import { backupName } from './take';

/** A backup a day at 03:00 UTC for `days` days up to 2026-12-07, newest first. */
function daily(days: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < days; i++) out.push(backupName(new Date(Date.UTC(2026, 11, 7 - i, 3))));
  return out;
}

describe('which backups are kept', () => {
  it('reads the time back from a name', () => {
    const at = new Date('2026-12-07T03:00:00.123Z');
    expect(takenAt(backupName(at)).toISOString()).toBe(at.toISOString());
  });

  it('keeps the last 7 days, 4 weeks and 6 months of a year of daily backups', () => {
    const names = daily(365);
    const kept = [...backupsToKeep(names, { daily: 7, weekly: 4, monthly: 6 })].sort().reverse();
    // The 7 newest days, then the newest of each earlier week (Sundays) and month (last days).
    expect(kept.slice(0, 7)).toEqual(names.slice(0, 7));
    expect(kept).toContain(backupName(new Date(Date.UTC(2026, 10, 29, 3)))); // Sunday of the week before
    expect(kept).toContain(backupName(new Date(Date.UTC(2026, 10, 22, 3))));
    expect(kept).toContain(backupName(new Date(Date.UTC(2026, 6, 31, 3)))); // the sixth month: July
    expect(kept).not.toContain(backupName(new Date(Date.UTC(2026, 5, 30, 3))));
    expect(kept.length).toBeLessThanOrEqual(7 + 4 + 6);
    expect(kept.length).toBeGreaterThanOrEqual(12);
  });

  it('keeps the newest of several backups a day, and never removes the newest', () => {
    const names = [
      backupName(new Date('2026-12-07T03:00:00Z')),
      backupName(new Date('2026-12-07T12:00:00Z')),
      backupName(new Date('2026-12-06T03:00:00Z')),
    ];
    expect(backupsToKeep(names, { daily: 1, weekly: 1, monthly: 1 })).toEqual(new Set([names[1]]));
    expect(backupsToKeep(['not-a-backup'], { daily: 1, weekly: 1, monthly: 1 }).size).toBe(0);
  });
});

describe('when the daily backup falls due', () => {
  it('is the last BACKUP_HOUR of UK time at or before now', () => {
    // Winter: UK time is UTC.
    expect(lastDue(new Date('2026-12-07T10:15:30Z'), 3).toISOString()).toBe('2026-12-07T03:00:00.000Z');
    expect(lastDue(new Date('2026-12-07T02:59:00Z'), 3).toISOString()).toBe('2026-12-06T03:00:00.000Z');
    // Summer: UK time is UTC+1, so 03:00 UK is 02:00 UTC.
    expect(lastDue(new Date('2026-07-01T10:00:00Z'), 3).toISOString()).toBe('2026-07-01T02:00:00.000Z');
  });
});

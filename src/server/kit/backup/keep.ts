/**
 * Which backups are kept (decision 057): the newest of each of the last N days, weeks and months
 * that have a backup (UK time; 7, 4 and 6 by default), and always the newest. The rest are
 * removed, and only after a newer backup was verified (the caller prunes after a backup).
 */
import { BACKUP_NAME } from './manifest';

export type Keep = { daily: number; weekly: number; monthly: number };

/** The moment a backup's name says it was taken. */
export function takenAt(name: string): Date {
  const stamp = name.slice('backup-'.length);
  const [date, time] = stamp.split('T') as [string, string];
  const [h, m, s, ms] = time.replace('Z', '').split('-');
  return new Date(`${date}T${h}:${m}:${s}.${ms}Z`);
}

function ukParts(at: Date) {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { year: Number(get('year')), month: get('month'), day: get('day') };
}

/** The ISO week (Monday first) of a UK date: `2026-W49`. */
function isoWeek(year: number, month: string, day: string): string {
  const date = new Date(Date.UTC(year, Number(month) - 1, Number(day)));
  const weekday = (date.getUTCDay() + 6) % 7;
  date.setUTCDate(date.getUTCDate() - weekday + 3);
  const weekYear = date.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(weekYear, 0, 4));
  const week =
    1 +
    Math.round(
      (date.getTime() - firstThursday.getTime()) / 86_400_000 / 7 -
        ((firstThursday.getUTCDay() + 6) % 7) / 7 +
        3 / 7,
    );
  return `${weekYear}-W${String(week).padStart(2, '0')}`;
}

/** The backups of `names` to keep; the others may be removed. */
export function backupsToKeep(names: readonly string[], keep: Keep): Set<string> {
  const newestFirst = names
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .reverse();
  const kept = new Set<string>(newestFirst.slice(0, 1));
  const rule = (limit: number, period: (name: string) => string) => {
    const seen = new Set<string>();
    for (const name of newestFirst) {
      const key = period(name);
      if (seen.has(key)) continue;
      if (seen.size >= limit) break;
      seen.add(key);
      kept.add(name);
    }
  };
  const day = (name: string) => {
    const { year, month, day } = ukParts(takenAt(name));
    return { year, month, day };
  };
  rule(keep.daily, (name) => {
    const d = day(name);
    return `${d.year}-${d.month}-${d.day}`;
  });
  rule(keep.weekly, (name) => {
    const d = day(name);
    return isoWeek(d.year, d.month, d.day);
  });
  rule(keep.monthly, (name) => {
    const d = day(name);
    return `${d.year}-${d.month}`;
  });
  return kept;
}

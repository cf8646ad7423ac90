/**
 * The contact form's browser limit (spec section 9): at most 3 submissions per 5 minutes,
 * counted in local storage, so shared by every visitor of that browser. The server enforces
 * the same limit per client where it cannot be bypassed; this one answers without a request.
 */
export const CONTACT_LIMIT = { max: 3, windowMs: 300_000 } as const;
export const CONTACT_LIMIT_KEY = 'sterling-sats:contact-attempts';

type Store = Pick<Storage, 'getItem' | 'setItem'>;

function read(store: Store, now: number): number[] {
  try {
    const parsed: unknown = JSON.parse(store.getItem(CONTACT_LIMIT_KEY) ?? '[]');
    return Array.isArray(parsed)
      ? parsed.filter(
          (t): t is number => typeof t === 'number' && now - t < CONTACT_LIMIT.windowMs && t <= now,
        )
      : [];
  } catch {
    return [];
  }
}

/** Records an attempt and says whether it is within the limit. Storage that fails (private mode) never blocks. */
export function takeContactAttempt(store: Store | undefined, now = Date.now()): boolean {
  if (!store) return true;
  const recent = read(store, now);
  if (recent.length >= CONTACT_LIMIT.max) return false;
  try {
    store.setItem(CONTACT_LIMIT_KEY, JSON.stringify([...recent, now]));
  } catch {
    // Quota or privacy settings: the server's limit still applies.
  }
  return true;
}

export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

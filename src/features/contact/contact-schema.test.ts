import { describe, expect, it } from 'vitest';
import { consents } from '~/content/consents';
import { MESSAGE_TOO_LONG, toContactRequest } from './contact-fields';
import { ContactSchema } from './contact-schema';
import { TOO_MANY_ATTEMPTS } from '~/content/forms';
import { CONTACT_LIMIT, takeContactAttempt } from './contact-rate-limit';

const valid = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.org',
  company: 'Engines Ltd',
  subject: 'consulting',
  message: 'Hello',
  consent: true,
};

const UNDER_50 = 'Please keep this under 50 characters.';
const UNDER_100 = 'Please keep this under 100 characters.';
const UNUSUAL = 'Please remove line breaks and unusual characters.';
const INVALID_EMAIL = 'Please enter a valid email address.';

function errorsOf(input: Record<string, unknown>) {
  const r = ContactSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe('ContactSchema', () => {
  it('accepts a complete message, cleans it and records the current consent wording', () => {
    const r = ContactSchema.parse({
      ...valid,
      firstName: '  Ada<script>x</script> ',
      message: 'Hi <img src=x onerror=y()>\nthere',
    });
    expect(r.firstName).toBe('Ada');
    expect(r.message).toBe('Hi <img src=x>\nthere');
    expect(r.consentVersion).toBe(consents.contact.id);
    expect(toContactRequest(r)).toMatchObject({ formType: 'contact', subject: 'consulting' });
  });

  it("uses the spec's messages", () => {
    expect(errorsOf({ ...valid, email: 'ada@example' }).email).toBe('Please enter a valid email address.');
    expect(errorsOf({ ...valid, email: 'ada @example.org' }).email).toBe(
      'Please enter a valid email address.',
    );
    expect(errorsOf({ ...valid, message: 'x'.repeat(5001) }).message).toBe(MESSAGE_TOO_LONG);
    expect(errorsOf({ ...valid, message: 'x'.repeat(5000) }).message).toBeUndefined();
  });

  it('enforces the length limits and the required fields', () => {
    expect(errorsOf({ ...valid, firstName: 'x'.repeat(51) }).firstName).toBe(UNDER_50);
    expect(errorsOf({ ...valid, lastName: 'x'.repeat(51) }).lastName).toBe(UNDER_50);
    expect(errorsOf({ ...valid, company: 'x'.repeat(101) }).company).toBe(UNDER_100);
    expect(errorsOf({ ...valid, email: `${'x'.repeat(95)}@a.com` }).email).toBe(UNDER_100);
    expect(errorsOf({ ...valid, subject: 'cooking' }).subject).toBe('Please select a subject.');
    expect(errorsOf({ ...valid, subject: '' }).subject).toBe('Please select a subject.');
    expect(errorsOf({ ...valid, consent: false }).consent).toBe(
      'Please tick the box so we can use your details to reply.',
    );
    // A value that is nothing but a script block is empty once cleaned.
    expect(errorsOf({ ...valid, company: '<script>x</script>' }).company).toBe('Please enter your company.');
  });

  it('refuses line breaks in single-line fields and header-like e-mail addresses', () => {
    expect(errorsOf({ ...valid, firstName: 'Ada\r\nBcc: x@y.z' }).firstName).toBe(UNUSUAL);
    expect(errorsOf({ ...valid, email: 'a@b.co\nBcc: x@y.z' }).email).toBe(INVALID_EMAIL);
    expect(errorsOf({ ...valid, email: '<a@b.co>' }).email).toBe(INVALID_EMAIL);
    expect(errorsOf({ ...valid, message: 'line one\r\nline two\ttabbed' }).message).toBeUndefined();
    expect(errorsOf({ ...valid, message: 'bell \u0007' }).message).toBe(UNUSUAL);
    expect(errorsOf({ ...valid, message: 'half a pair \ud800' }).message).toBe(UNUSUAL);
    expect(errorsOf({ ...valid, message: 'a whole pair \ud83d\ude00' }).message).toBeUndefined();
  });

  it('strips fields it does not know (bcc, to)', () => {
    const r = ContactSchema.parse({ ...valid, bcc: 'x@y.z', to: 'x@y.z' });
    expect(r).not.toHaveProperty('bcc');
    expect(r).not.toHaveProperty('to');
  });
});

describe('the browser limit', () => {
  function memoryStore() {
    const data = new Map<string, string>();
    return {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
  }

  it('allows 3 attempts per 5 minutes, then refuses until the oldest expires', () => {
    const store = memoryStore();
    const t = 1_000_000;
    expect([0, 1, 2].map((i) => takeContactAttempt(store, t + i * 1000))).toEqual([true, true, true]);
    expect(takeContactAttempt(store, t + 10_000)).toBe(false);
    expect(takeContactAttempt(store, t + CONTACT_LIMIT.windowMs + 1)).toBe(true);
    expect(TOO_MANY_ATTEMPTS).toBe('Too many attempts. Please wait before trying again.');
  });

  it('never blocks when storage is unavailable or corrupt', () => {
    expect(takeContactAttempt(undefined)).toBe(true);
    const broken = {
      getItem: () => '{not json',
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(takeContactAttempt(broken)).toBe(true);
  });
});

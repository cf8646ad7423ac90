import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN, UUID_PATTERN } from './patterns';

describe('EMAIL_PATTERN', () => {
  it.each(['ada@example.org', 'a.b+c@mail.example.co.uk', 'O@X.Y'])('accepts %s', (value) => {
    expect(EMAIL_PATTERN.test(value)).toBe(true);
  });

  it.each([
    '',
    'ada',
    'ada@example',
    '@example.org',
    'ada@.',
    'a b@example.org',
    'ada@@example.org',
    ' ada@example.org',
    'a\u0000@b.co',
    'ada@exa\u0085mple.org',
    '\u202Egro.elpmaxe@ada',
    'ada\u2066@example.org',
    'ada@example.org\u200F',
    'a\u200Bda@example.org',
  ])('refuses %j', (value) => {
    expect(EMAIL_PATTERN.test(value)).toBe(false);
  });
});

describe('UUID_PATTERN', () => {
  it.each([
    '00000000-0000-4000-8000-000000000000',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479',
    'F47AC10B-58CC-4372-A567-0E02B2C3D479',
    // Any version and variant: the ids are Postgres's, not checked against RFC 9562.
    '00000000-0000-0000-0000-000000000000',
  ])('accepts %s', (value) => {
    expect(UUID_PATTERN.test(value)).toBe(true);
  });

  it.each([
    '',
    'not-a-uuid',
    'f47ac10b58cc4372a5670e02b2c3d479',
    '{f47ac10b-58cc-4372-a567-0e02b2c3d479}',
    'f47ac10b-58cc-4372-a567-0e02b2c3d47',
    'f47ac10b-58cc-4372-a567-0e02b2c3d479 ',
    'g47ac10b-58cc-4372-a567-0e02b2c3d479',
  ])('refuses "%s"', (value) => {
    expect(UUID_PATTERN.test(value)).toBe(false);
  });
});

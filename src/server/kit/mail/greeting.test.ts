import { describe, expect, it } from 'vitest';
import { greeting, quotableName } from './greeting';

describe('the greeting of a visitor e-mail', () => {
  it('quotes a first name made of letters, spaces, hyphens and apostrophes', () => {
    for (const name of [
      'Jane',
      'Anne-Marie',
      "O'Brien",
      'O’Neill',
      'José',
      'Zoë',
      'Mary Jane',
      'Łukasz',
      '李',
    ]) {
      expect(greeting(name)).toBe(`Hello ${name},`);
    }
    expect(greeting('  Jane  ')).toBe('Hello Jane,');
  });

  it('greets neutrally anything else', () => {
    for (const name of [
      'www.evil.example',
      'Click http://x',
      'http:',
      'a@b',
      'Jane2',
      'R2D2',
      'Jane.',
      'path/to',
      'Dear: you',
      '',
      '   ',
      "'Jane",
      '-Jane',
      'J'.repeat(51),
      '<b>Jane</b>',
      'Jane\u202Eenil',
      undefined,
      null,
    ]) {
      expect(greeting(name)).toBe('Hello,');
      expect(quotableName(name)).toBeUndefined();
    }
  });
});

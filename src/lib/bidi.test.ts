import { describe, expect, it } from 'vitest';
import { withoutBidiControls } from './bidi';
import { text } from './validation';

const CONTROLS = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
];

describe('bidirectional controls', () => {
  it('are removed, each of them, and nothing else', () => {
    for (const control of CONTROLS) expect(withoutBidiControls(`Ada${control}gnp.exe`)).toBe('Adagnp.exe');
    expect(withoutBidiControls('שלום Ada — 12')).toBe('שלום Ada — 12');
  });

  it('never reach a one-line field of a form; a message keeps them', () => {
    expect(text({ required: 'r', max: 50 }).parse(' \u202EAda\u2066 ')).toBe('Ada');
    expect(text({ required: 'r', max: 50, multiline: true }).parse('a\u200Fb')).toBe('a\u200Fb');
    expect(text({ required: 'r', max: 50 }).safeParse('\u202E').success).toBe(false);
  });
});

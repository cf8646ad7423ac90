import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanText, sanitizeText } from './sanitize';

describe('sanitizeText', () => {
  it.each([
    ['<script>alert(1)</script>Hello', 'Hello'],
    ['Hi <SCRIPT type="x">bad()</SCRIPT > there', 'Hi  there'],
    ['a<iframe src="//evil"></iframe>b', 'ab'],
    ['a<object data="x">inner</object>b<embed src="y">c', 'abc'],
    ['unclosed <script>alert(1)', 'unclosed'],
    ['<a href="javascript:alert(1)">x</a>', '<a href="alert(1)">x</a>'],
    ['JaVaScRiPt:alert(1)', 'alert(1)'],
    ['java\tscript:alert(1)', 'alert(1)'],
    ['<img src=x onerror=alert(1)>', '<img src=x>'],
    ['<div onclick="a()" onmouseover=\'b()\' class="c">', '<div class="c">'],
    ['<scr<script></script>ipt>alert(1)</script>', 'alert(1)'],
    ['  plain text, nothing to clean  ', 'plain text, nothing to clean'],
    [
      'Emails like a@b.co and "quotes" & ampersands stay',
      'Emails like a@b.co and "quotes" & ampersands stay',
    ],
    ['One online offer: on=Monday', 'One online offer: on=Monday'],
  ])('cleans %j', (input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });

  it('leaves no script block, javascript: or event handler, whatever the input', () => {
    const piece = fc.constantFrom(
      '<script>',
      '</script>',
      '<scr',
      'ipt>',
      'javascript:',
      'java',
      'script:',
      ' onload=x',
      '<img',
      '>',
      'text',
      ' ',
      '\n',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((a) => a.join('')),
        (input) => {
          const out = sanitizeText(input);
          expect(out).not.toMatch(/<script/i);
          expect(out).not.toMatch(/javascript\s*:/i);
          expect(out).not.toMatch(/<[^>]*\son[a-z]+\s*=/i);
          expect(sanitizeText(out)).toBe(out);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('takes steps in proportion to the length, however deep the nesting', () => {
    /** `open` × k, then `core`, then `close` × k: each removal of the core rebuilds it one level out. */
    const nested = (open: string, core: string, close: string, length: number) => {
      const k = Math.floor((length - core.length) / (open.length + close.length));
      return open.repeat(k) + core + close.repeat(k);
    };
    const crafted = [
      (length: number) => nested('<emb', '<embed>', 'ed>', length),
      (length: number) => nested('<scr', '<script></script>', 'ipt>', length),
      (length: number) => nested('<ifr', '<iframe></iframe>', 'ame>', length),
      (length: number) => nested('<scr', '</script>', 'ipt>', length),
      (length: number) => nested('java', 'javascript:', 'script:', length),
      (length: number) => nested('<a o', '<a onx=1 ', 'nx=1 ', length),
      (length: number) => '<script>'.repeat(length / 8),
      (length: number) => '<'.repeat(length),
    ];
    for (const make of crafted) {
      for (const length of [5000, 20_000]) {
        const input = make(length);
        const { text, steps } = cleanText(input);
        expect(steps, `${input.slice(0, 24)}… (${input.length})`).toBeLessThanOrEqual(2 * input.length + 10);
        expect(text).toBe(sanitizeText(text));
      }
    }
    // The message of nested embed tags that took a quarter of a second: every level is removed.
    expect(cleanText(nested('<emb', '<embed>', 'ed>', 5000)).text).toBe('');
  });

  it('stays linear on hostile input of the maximum length', () => {
    for (const input of ['<a '.repeat(1700), '<a onx=1 '.repeat(550), '<script>'.repeat(600)]) {
      expect(cleanText(input).steps).toBeLessThanOrEqual(2 * input.length + 10);
    }
  });

  it('gives text with no `<` and no `:` back trimmed, as the full pass does', () => {
    const samples = ['  Ada Lovelace ', 'We would like a workshop.\nThursdays suit us.', 'on=1 >', ''];
    for (const text of samples) {
      expect(cleanText(text).text).toBe(text.trim());
      // The full pass gives the same answer when a `:` forces it.
      expect(cleanText(`${text}:`).text).toBe(`${text}:`.trim());
    }
  });
});

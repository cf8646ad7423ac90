import { describe, expect, it } from 'vitest';
import { createLinks } from '../http/links';
import { escapeHtml, renderEmail } from './layout';
import { headerSafe } from './outbox';

describe('renderEmail', () => {
  const hostile = '<script>alert("x")</script> & \'quotes\'';
  const { html, text } = renderEmail({
    preheader: hostile,
    heading: `Hello ${hostile}`,
    blocks: [
      { type: 'paragraph', text: `${hostile}\nline two` },
      { type: 'fields', rows: [['Name', hostile]] },
      { type: 'quote', text: hostile },
      { type: 'button', label: hostile, url: 'javascript:alert(1)' },
      { type: 'button', label: 'Download', url: 'https://www.example.com/guide.pdf?a=1&b=2' },
    ],
  });

  it('escapes every value in the HTML part', () => {
    expect(html).not.toContain('<script>');
    expect(html).toContain(escapeHtml(hostile));
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;<br>line two',
    );
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="https://www.example.com/guide.pdf?a=1&amp;b=2"');
  });

  it('gives a plain-text part with the same content', () => {
    expect(text).toContain(hostile);
    expect(text).toContain('Name: ');
    expect(text).toContain('> <script>');
    expect(text).toContain('Download: https://www.example.com/guide.pdf?a=1&b=2');
  });

  it('wears the site colours and the disclaimer', () => {
    expect(html).toContain('#b9470b');
    expect(html).toContain('#0b1f3a');
    expect(text).toMatch(/educational content only/i);
  });
});

describe('header values and links', () => {
  it('strips line breaks from header values', () => {
    expect(headerSafe('Hello\r\nBcc: x@y.z')).toBe('Hello Bcc: x@y.z');
  });

  it('builds absolute links and hashes addresses', () => {
    const links = createLinks('https://www.example.com', 's'.repeat(32));
    expect(links.absolute('/guides/x.pdf')).toBe('https://www.example.com/guides/x.pdf');
    expect(links.hashAddress('203.0.113.1')).not.toContain('203');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { site } from '~/content/site';
import {
  fillUnsubscribe,
  renderIssueEmail,
  UNSUBSCRIBE_MARK,
  type RenderedIssue,
} from './issue-email.server';

const footer = {
  postalAddress: ['Sterling Sats Ltd', '1 Example Court', 'London EC1A 1AA'],
  siteUrl: 'https://www.example.com',
};

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

const body = [
  '# Welcome',
  '',
  'A paragraph with **bold**, a [good link](https://www.example.com/a?b=1&c=2) and &pound;100.',
  '',
  '## A section',
  '',
  '- first',
  '- second, see <https://www.gov.uk/>',
  '  1. nested',
  '',
  '> A quoted line.',
  '',
  '| Year | Rate |',
  '| ---- | ---- |',
  '| 2025/26 | 18% |',
  '',
  '![A chart](/images/chart.png)',
  '',
  '---',
  '',
  'Write to <hello@example.com>.',
].join('\n');

describe('renderIssueEmail', () => {
  it('never lets the body’s raw HTML through as markup', async () => {
    const { html } = await renderIssueEmail(
      {
        subject: 'Hello',
        preheader: '',
        body: '<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> and <b>bold</b>.\n\n<div onclick="x()">block</div>',
      },
      footer,
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/<b>|<div onclick/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('neutralises links and images that are not http(s), mailto or https images', async () => {
    const { html, text } = await renderIssueEmail(
      {
        subject: 'Links',
        preheader: '',
        body: [
          '[click](javascript:alert(1)) and <javascript:alert(2)> and [data](data:text/html,hi)',
          '[safe](https://www.example.com/ "A title") and [mail](mailto:hello@example.com)',
          '![plain](http://img.example.com/x.png) ![inline](data:image/png;base64,AAAA) ![good](https://img.example.com/ok.png)',
        ].join('\n\n'),
      },
      footer,
    );
    // Every link and image left in the e-mail points where it may; the rest are their words.
    const targets = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]);
    expect(targets.every((url) => /^(?:https?:\/\/|mailto:|%%unsubscribe-url%%$)/.test(url ?? ''))).toBe(
      true,
    );
    expect(html).toContain('>click and javascript:alert(2) and data</p>');
    expect(html).toMatch(/<a href="https:\/\/www\.example\.com\/" title="A title"[^>]*>safe<\/a>/);
    expect(html).toMatch(/<a href="mailto:hello@example\.com"[^>]*>mail<\/a>/);
    expect(html).not.toContain('http://img.example.com');
    // Another host's image is a link to it: that host never learns who opened the e-mail.
    expect(html).not.toMatch(/<img[^>]*img\.example\.com/);
    expect(html).toMatch(/<a href="https:\/\/img\.example\.com\/ok\.png"[^>]*>good<\/a>/);
    expect(text).toContain('click and javascript:alert(2) and data');
    expect(text).not.toMatch(/\((?:javascript|data):/i);
  });

  it('loads images from the site itself only, by its path or its address', async () => {
    const { html } = await renderIssueEmail(
      {
        subject: 'Images',
        preheader: '',
        body: '![ours](/og-image.png) ![also ours](https://www.example.com/a.png) ![theirs](https://www.example.com.evil.test/b.png) ![protocol](//evil.test/c.png)',
      },
      footer,
    );
    const images = [...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1]);
    expect(images).toEqual(['https://www.example.com/og-image.png', 'https://www.example.com/a.png']);
    expect(html).toMatch(/<a href="https:\/\/www\.example\.com\.evil\.test\/b\.png"[^>]*>theirs<\/a>/);
    expect(html).not.toContain('evil.test/c.png');
  });

  it('inlines the stylesheet in the site’s colours', async () => {
    const { html } = await renderIssueEmail({ subject: 'Look', preheader: 'Preview', body }, footer);
    expect(html).toMatch(/<p style="[^"]*color: #0b1f3a/);
    expect(html).toMatch(/<h2 style="[^"]*font-size: 20px/);
    expect(html).toMatch(/<a href="https:\/\/www\.example\.com\/a\?b=1&amp;c=2" style="[^"]*color: #b9470b/);
    expect(html).toMatch(/<img [^>]*style="[^"]*max-width: 100%/);
    expect(html).toMatch(/<blockquote style="[^"]*border-left: 4px solid #b9470b/);
    expect(html).toMatch(/<td style="[^"]*border-bottom/);
    expect(html).not.toContain('<style');
    expect(html).toContain('max-width:600px');
    expect(html).toContain('name="viewport"');
  });

  it('keeps the subject as the one top heading', async () => {
    const { html } = await renderIssueEmail({ subject: 'The subject', preheader: '', body }, footer);
    expect(count(html, '<h1')).toBe(1);
    expect(html).toMatch(/<h1[^>]*>The subject<\/h1>/);
    expect(html).toMatch(/<h2[^>]*>Welcome<\/h2>/);
  });

  it('escapes the subject and the preheader', async () => {
    const { html, text } = await renderIssueEmail(
      { subject: 'Tax <b>&</b> "you"', preheader: 'Read <script>x</script> now', body: 'Hi.' },
      footer,
    );
    expect(html).toContain('<title>Tax &lt;b&gt;&amp;&lt;/b&gt; &quot;you&quot;</title>');
    expect(html).toContain('>Tax &lt;b&gt;&amp;&lt;/b&gt; &quot;you&quot;</h1>');
    expect(html).toContain(
      '<div style="display:none;max-height:0;overflow:hidden;">Read &lt;script&gt;x&lt;/script&gt; now</div>',
    );
    expect(html).not.toContain('<script>');
    expect(text).toContain('Tax <b>&</b> "you"');
  });

  it('puts the reason, the sender, the address, the disclaimer and one unsubscribe link in the footer', async () => {
    const { html, text } = await renderIssueEmail({ subject: 'S', preheader: '', body }, footer);
    const reason = `You receive this because you subscribed to The Smart Money Newsletter from ${site.brand} and confirmed your address.`;
    for (const part of [html, text]) {
      expect(part).toContain(reason);
      expect(part).toContain(site.disclaimer);
      for (const line of footer.postalAddress) expect(part).toContain(line);
      expect(count(part, UNSUBSCRIBE_MARK)).toBe(1);
    }
    expect(html).toMatch(new RegExp(`<a href="${UNSUBSCRIBE_MARK}"[^>]*>Unsubscribe</a>`));
    expect(text).toContain(`Unsubscribe: ${UNSUBSCRIBE_MARK}`);
    expect(html).toMatch(/<a href="https:\/\/www\.example\.com"[^>]*>www\.example\.com<\/a>/);
  });

  it('tracks nobody: the only links are the body’s, the site’s and the unsubscribe mark', async () => {
    const { html } = await renderIssueEmail({ subject: 'S', preheader: '', body }, footer);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs.sort()).toEqual(
      [
        'https://www.example.com/a?b=1&amp;c=2',
        'https://www.gov.uk/',
        'mailto:hello@example.com',
        'https://www.example.com',
        UNSUBSCRIBE_MARK,
      ].sort(),
    );
    expect([...html.matchAll(/<img [^>]*src="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'https://www.example.com/images/chart.png',
    ]);
  });

  it('gives a readable plain-text part with no HTML tags', async () => {
    const { text } = await renderIssueEmail(
      { subject: 'Plain', preheader: '', body: `${body}\n\nAnd <em>raw</em> <span style="x">markup</span>.` },
      footer,
    );
    expect(text).not.toMatch(/<\/?[a-z][^>]*>/i);
    expect(text).toContain('Welcome\n-------');
    expect(text).toContain(
      'A paragraph with bold, a good link (https://www.example.com/a?b=1&c=2) and £100.',
    );
    expect(text).toContain('- first\n- second, see https://www.gov.uk/\n  1. nested');
    expect(text).toContain('> A quoted line.');
    expect(text).toContain('2025/26 | 18%');
    expect(text).toContain('Write to hello@example.com.');
    expect(text).toContain('And raw markup.');
    expect(text.startsWith(`${site.brand.toUpperCase()}\n\nPlain\n\n`)).toBe(true);
  });
});

describe('fillUnsubscribe', () => {
  let rendered: RenderedIssue;
  beforeAll(async () => {
    rendered = await renderIssueEmail({ subject: 'S', preheader: '', body: 'Hello.' }, footer);
  });
  const url = 'https://www.example.com/newsletter/unsubscribe?t=a.b&x="y"<z>$&';

  it('puts the recipient’s URL in place of every mark, escaped in the HTML part', () => {
    const filled = fillUnsubscribe(rendered, url);
    expect(filled.html).not.toContain(UNSUBSCRIBE_MARK);
    expect(filled.text).not.toContain(UNSUBSCRIBE_MARK);
    expect(filled.html).toContain(
      'href="https://www.example.com/newsletter/unsubscribe?t=a.b&amp;x=&quot;y&quot;&lt;z&gt;$&amp;"',
    );
    expect(filled.html).not.toContain(url);
    expect(filled.text).toContain(`Unsubscribe: ${url}`);
  });

  it('replaces every occurrence and leaves the rendered issue as it was', () => {
    const twice = {
      html: `${rendered.html}${UNSUBSCRIBE_MARK}`,
      text: `${UNSUBSCRIBE_MARK}${rendered.text}`,
    };
    const filled = fillUnsubscribe(twice, 'https://u.example/1');
    expect(count(filled.html, 'https://u.example/1')).toBe(2);
    expect(count(filled.text, 'https://u.example/1')).toBe(2);
    expect(count(rendered.html, UNSUBSCRIBE_MARK)).toBe(1);
  });
});

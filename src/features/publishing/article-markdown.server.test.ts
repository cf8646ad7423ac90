import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { readArticles } from '~/content/articles.server';
import { countWords, readingMinutes, renderArticleMarkdown } from './article-markdown.server';

const html = (source: string) => renderArticleMarkdown(source).html;

/** Every tag the renderer may write, and every attribute it may give one. */
const TAGS = new Set([
  'p',
  'br',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'img',
  'strong',
  'em',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);
const ATTRIBUTES = new Set(['href', 'title', 'rel', 'src', 'alt', 'loading', 'align', 'start', 'class']);

/** Every tag of the output with its attributes: nothing outside the allowed sets, no script-bearing value. */
function expectOnlySafeMarkup(out: string) {
  for (const [, name, attrs] of out.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    expect(TAGS, `tag <${name}> in ${out}`).toContain(name!.toLowerCase());
    for (const [, attr, value] of attrs!.matchAll(/([^\s=]+)(?:="([^"]*)")?/g)) {
      expect(ATTRIBUTES, `attribute ${attr} in ${out}`).toContain(attr!.toLowerCase());
      if (attr === 'href') expect(value).toMatch(/^(https?:\/\/|mailto:|\/(?![/\\]))/i);
      if (attr === 'src') expect(value).toMatch(/^\/(?![/\\])/);
    }
  }
  expect(out).not.toMatch(/<script/i);
  // An event handler as an attribute of its own (inside a quoted value it is text).
  expect(out.replace(/="[^"]*"/g, '=""')).not.toMatch(/<[^>]*\son\w+=/i);
  expect(out).not.toMatch(/(href|src)="\s*(javascript|data|vbscript):/i);
}

describe('renderArticleMarkdown', () => {
  it('renders the owner’s Markdown: headings, emphasis, lists, tables, code', () => {
    const out = html(
      '# Title\n\n## Part\n\nSome **bold** and _em_ text.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\nconst x = 1 < 2;\n```',
    );
    expect(out).toContain('<h2>Title</h2>');
    expect(out).toContain('<h2>Part</h2>');
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<li>one</li>');
    expect(out).toContain('<table>');
    expect(out).toContain('const x = 1 &lt; 2;');
    expectOnlySafeMarkup(out);
  });

  it('shows a <script> as text, never as a script', () => {
    const block = html('<script>alert(1)</script>');
    expect(block).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const inline = html('Hello <script>alert(1)</script> there');
    expect(inline).toContain('&lt;script&gt;');
    expectOnlySafeMarkup(block);
    expectOnlySafeMarkup(inline);
  });

  it('shows an <img onerror> and other raw HTML as text', () => {
    for (const source of [
      '<img src=x onerror=alert(1)>',
      'Text <img src="x" onerror="alert(1)"> more',
      '<iframe src="https://evil.example"></iframe>',
      '<a href="javascript:alert(1)">click</a>',
      '<div onclick="alert(1)">x</div>',
      '<svg onload=alert(1)>',
      '<style>body{display:none}</style>',
    ]) {
      const out = html(source);
      expect(out).not.toMatch(/<(img|iframe|a|div|svg|style)\b/);
      expect(out).toContain('&lt;');
      expectOnlySafeMarkup(out);
    }
  });

  it('renders a javascript: link as its words alone, whatever its spelling', () => {
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      '  javascript:alert(1)',
      '<javascript:alert(1)>',
      'jav&#x61;script:alert(1)',
      'java%0ascript:alert(1)',
      'vbscript:msgbox(1)',
    ]) {
      const out = html(`[click me](${href})`);
      expect(out, href).toContain('click me');
      expect(out, href).not.toContain('<a');
      expectOnlySafeMarkup(out);
    }
    // A reference link and an autolink too.
    expect(html('[x][r]\n\n[r]: javascript:alert(1)')).not.toContain('<a');
    expect(html('<javascript:alert(1)>')).not.toContain('<a');
  });

  it('loads an image only from this site, and links to another site\'s', () => {
    const own = html('![the chart](/og-image.png)');
    expect(own).toContain('<img src="/og-image.png" alt="the chart" loading="lazy">');
    const remote = html('![a chart](https://images.example.com/chart.png)');
    expect(remote).not.toContain('<img');
    expect(remote).toContain('<a href="https://images.example.com/chart.png" rel="noopener noreferrer">a chart</a>');
    expect(html('![x](//evil.example/p.png)')).not.toContain('<img');
  });

  it('renders a data: link or image as words alone', () => {
    const link = html('[see](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)');
    expect(link).not.toContain('<a');
    expect(link).toContain('see');
    const image = html('![a chart](data:image/svg+xml;base64,PHN2Zz4=)');
    expect(image).not.toContain('<img');
    expect(image).toContain('a chart');
    expectOnlySafeMarkup(link);
    expectOnlySafeMarkup(image);
  });

  it('keeps http(s), mailto and site links; other sites’ links get noopener noreferrer', () => {
    const out = html(
      '[HMRC](https://www.gov.uk/x "The manual") [us](/resources/articles) [mail](mailto:hello@example.com) [proto](//evil.example) [slash](/\\evil.example) www.example.org',
    );
    expect(out).toContain(
      '<a href="https://www.gov.uk/x" title="The manual" rel="noopener noreferrer">HMRC</a>',
    );
    expect(out).toContain('<a href="/resources/articles">us</a>');
    expect(out).toContain('<a href="mailto:hello@example.com">mail</a>');
    expect(out).toContain('<a href="http://www.example.org" rel="noopener noreferrer">www.example.org</a>');
    expect(out).not.toContain('evil.example"');
    expectOnlySafeMarkup(out);
  });

  it('loads no image over plain http, nor from another site', () => {
    expect(html('![chart](http://img.example.org/c.png)')).not.toContain('<img');
    expect(html('![chart](https://img.example.org/c.png)')).not.toContain('<img');
  });

  it('escapes what would break out of an attribute', () => {
    const out = html('[x](https://example.org/"onmouseover="alert(1) "t\\"itle")');
    expectOnlySafeMarkup(out);
    const image = html('![a" onerror="alert(1)](/i.png)');
    expect(image).toContain('alt="a&quot; onerror=&quot;alert(1)"');
    expectOnlySafeMarkup(image);
  });

  it('writes a task list’s boxes as characters, not form controls', () => {
    const out = html('- [x] done\n- [ ] to do');
    expect(out).not.toContain('<input');
    expect(out).toContain('☑ done');
    expect(out).toContain('☐ to do');
  });
});

describe('words and reading time', () => {
  it('counts words as the Markdown files are counted', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('## A heading\n\nTwo [linked words](https://x.y) - and **more**.')).toBe(7);
    expect(renderArticleMarkdown('One two three').words).toBe(3);
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(200)).toBe(1);
    expect(readingMinutes(201)).toBe(2);
  });

  it('gives each of the repository’s articles the same words and the same HTML as the build renders', () => {
    const dir = join(process.cwd(), 'src/content/articles');
    const files = Object.fromEntries(
      readdirSync(dir)
        .filter((name) => name.endsWith('.md'))
        .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
    );
    for (const built of readArticles(files)) {
      const { content } = matter(files[`${built.slug}.md`]!);
      const rendered = renderArticleMarkdown(content);
      expect(rendered.words, built.slug).toBe(built.words);
      expect(readingMinutes(rendered.words)).toBe(built.readingMinutes);
      expect(rendered.html, built.slug).toBe(built.html);
    }
  });
});

import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the build, without type declarations
import { deferHydration, revealBoundaries } from './html-bootstrap.mjs';

// The shape React Router 7 prerenders: preloads in the head, a stylesheet after them, and an
// inline module script with static imports.
const page = `<!DOCTYPE html><html><head><link rel="canonical" href="https://x/"/>
<link rel="modulepreload" href="/assets/manifest-1.js"/><link rel="modulepreload" href="/assets/entry.client-2.js"/>
<link rel="modulepreload" href="/assets/root-3.js"/><link rel="modulepreload" href="/assets/home-4.js"/>
<link rel="stylesheet" href="/assets/root-5.css"/></head><body><main><h1>Hello</h1></main>
<script>window.__reactRouterContext = {};</script>
<script type="module" async="">import "/assets/manifest-1.js";
import * as route0 from "/assets/root-3.js";
import * as route1 from "/assets/home-4.js";
  
  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};

import("/assets/entry.client-2.js");</script></body></html>`;

const bootstrapOf = (html: string) => /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';

type Browser = { visibility: 'visible' | 'hidden'; paintTiming: boolean };

/** Runs a rewritten bootstrap against a fake browser, recording what it asks for and when. */
function run(html: string, { visibility, paintTiming }: Browser) {
  const events: string[] = [];
  const frames: Array<() => void> = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const listeners: Array<() => void> = [];
  let observer:
    | ((list: { getEntriesByName: (n: string) => unknown[] }, o: { disconnect: () => void }) => void)
    | undefined;
  const modules: Record<string, unknown> = {
    '/assets/root-3.js': { id: 'root' },
    '/assets/home-4.js': { id: 'home' },
  };
  const win: { __reactRouterRouteModules?: unknown } = {};
  const document = {
    visibilityState: visibility,
    createElement: () => ({ rel: '', href: '' }),
    head: {
      append: (...links: Array<{ rel: string; href: string }>) =>
        events.push(...links.map((link) => `${link.rel} ${link.href}`)),
    },
    addEventListener: (_type: string, fn: () => void) => listeners.push(fn),
  };
  class FakeObserver {
    static supportedEntryTypes = paintTiming ? ['paint', 'resource'] : ['resource'];
    constructor(fn: typeof observer) {
      observer = fn;
    }
    observe() {}
  }
  const importer = (url: string) => {
    events.push(`import ${url}`);
    return Promise.resolve(modules[url] ?? {});
  };
  const source = bootstrapOf(html)
    .replace(/\bimport\(/g, '__import(')
    .replace(/\bwindow\./g, '__window.');
  new Function(
    'document',
    'requestAnimationFrame',
    'setTimeout',
    'self',
    'PerformanceObserver',
    '__import',
    '__window',
    source,
  )(
    document,
    (fn: () => void) => frames.push(fn),
    (fn: () => void, ms: number) => timers.push({ fn, ms }),
    { PerformanceObserver: FakeObserver },
    FakeObserver,
    importer,
    win,
  );
  const paint = (name: string) =>
    observer?.({ getEntriesByName: (n: string) => (n === name ? [{}] : []) }, { disconnect: () => {} });
  return { events, frames, timers, listeners, win, paint };
}

const ORDER = [
  'modulepreload /assets/manifest-1.js',
  'modulepreload /assets/root-3.js',
  'modulepreload /assets/home-4.js',
  'modulepreload /assets/entry.client-2.js',
  'import /assets/manifest-1.js',
  'import /assets/root-3.js',
  'import /assets/home-4.js',
  'import /assets/entry.client-2.js',
];

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('deferHydration', () => {
  const out = deferHydration(page) as string;

  it('takes the module preloads out of the HTML and leaves the stylesheet where it was', () => {
    expect(out).not.toContain('<link rel="modulepreload"');
    expect(out).toContain('<link rel="canonical" href="https://x/"/>');
    expect(out.indexOf('rel="stylesheet"')).toBeLessThan(out.indexOf('</head>'));
    expect(out).toContain('<main><h1>Hello</h1></main>');
    expect(out).not.toMatch(/^\s*import ["*]/m);
  });

  it('is idempotent and leaves pages without a React Router bootstrap alone', () => {
    expect(deferHydration(out)).toBe(out);
    const plain = '<html><head></head><body><p>Hi</p></body></html>';
    expect(deferHydration(plain)).toBe(plain);
  });

  it('loads nothing until the first contentful paint, then preloads the modules it names and imports them in the original order', async () => {
    const browser = run(out, { visibility: 'visible', paintTiming: true });
    browser.paint('first-paint');
    await settle();
    expect(browser.events).toEqual([]);
    browser.paint('first-contentful-paint');
    await settle();
    await settle();
    expect(browser.events).toEqual(ORDER);
    expect(browser.win.__reactRouterRouteModules).toEqual({
      root: { id: 'root' },
      'routes/home': { id: 'home' },
    });
    // The safety timer and a later visibility change do not load anything twice.
    for (const timer of browser.timers) timer.fn();
    for (const listener of browser.listeners) listener();
    await settle();
    expect(browser.events).toEqual(ORDER);
  });

  it('without paint timing, waits for a frame and a task', async () => {
    const browser = run(out, { visibility: 'visible', paintTiming: false });
    expect(browser.events).toEqual([]);
    browser.frames.shift()?.();
    await settle();
    expect(browser.events).toEqual([]);
    browser.timers.find((timer) => timer.ms === 0)?.fn();
    await settle();
    await settle();
    expect(browser.events).toEqual(ORDER);
  });

  it('never waits more than a second, and starts when the tab is hidden before it painted', async () => {
    const late = run(out, { visibility: 'visible', paintTiming: true });
    expect(late.timers.map((timer) => timer.ms)).toEqual([1000]);
    late.timers[0]?.fn();
    await settle();
    await settle();
    expect(late.events).toEqual(ORDER);

    const hidden = run(out, { visibility: 'visible', paintTiming: true });
    hidden.listeners[0]?.();
    await settle();
    await settle();
    expect(hidden.events).toEqual(ORDER);
  });

  it('starts at once in a hidden tab, where nothing will be painted', async () => {
    const browser = run(out, { visibility: 'hidden', paintTiming: true });
    await settle();
    await settle();
    expect(browser.frames).toEqual([]);
    expect(browser.events).toEqual(ORDER);
  });
});

describe('revealBoundaries', () => {
  // React's streamed tail of a prerendered page, as React Router 7 writes it.
  const RUNTIME =
    '$RB=[];$RV=function(a){};\n$RC=function(a,b){if(b=document.getElementById(b))(a=document.getElementById(a))};';
  const tail =
    '<main>Hi</main><!--$?--><template id="B:0"></template><!--/$-->' +
    '<script id="_R_">requestAnimationFrame(function(){$RT=performance.now()});</script>' +
    '<div hidden id="S:0"><script>enqueue()</script><!--$?--><template id="B:1"></template><!--/$--></div>' +
    `<script>${RUNTIME}$RC("B:0","S:0")</script>` +
    '<div hidden id="S:1"><script>close()</script></div><script>$RC("B:1","S:1")</script></body></html>';

  it('writes every boundary in place, as the runtime leaves it, without the runtime', () => {
    expect(revealBoundaries(tail)).toBe(
      '<main>Hi</main><!--$--><script>enqueue()</script><!--$--><script>close()</script><!--/$--><!--/$--></body></html>',
    );
  });

  it('leaves a page alone when anything does not fit', () => {
    const errored = tail.replace('$RC("B:1","S:1")', '$RX("B:1","digest")');
    expect(revealBoundaries(errored)).toBe(errored);
    const divInside = tail.replace('<script>close()</script>', '<div>late</div>');
    expect(revealBoundaries(divInside)).toBe(divInside);
    const missing = tail.replace('<div hidden id="S:1"><script>close()</script></div>', '');
    expect(revealBoundaries(missing)).toBe(missing);
    const plain = '<html><body><p>Hi</p></body></html>';
    expect(revealBoundaries(plain)).toBe(plain);
  });
});

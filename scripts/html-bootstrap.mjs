/**
 * Content first, code after the first paint (decision 008).
 *
 * React Router's prerendered pages list every module of the route as `<link rel="modulepreload">`
 * in the head and start them from an inline module script with static imports. On a slow phone
 * that puts some 30 requests of JavaScript in the same queue as the one stylesheet the first paint
 * needs, and runs hydration before the browser has painted the prerendered text.
 *
 * `deferHydration` rewrites each page so that:
 *  - the module preloads leave the HTML, so the stylesheet is the first resource the head asks
 *    for (it stays where it is: React hydrates the head and expects its elements in order);
 *  - the bootstrap script preloads the modules it names (their own imports follow) and
 *    imports the same modules in the same order once the browser reports the first contentful
 *    paint (or after a frame where it cannot report it), at once when the page is hidden (nothing
 *    will paint), and within a second whatever happens;
 *  - everything else in the page is untouched.
 * Nothing is lost without JavaScript: the prerendered HTML is the page.
 */

const PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;
const BOOTSTRAP = /<script type="module"(?: async="")?>([\s\S]*?)<\/script>/;
const SIDE_EFFECT_IMPORT = /^\s*import "([^"]+)";\s*$/gm;
const DYNAMIC_IMPORT = /\bimport\("([^"]+)"\)/g;
const NAMESPACE_IMPORT = /^\s*import \* as ([A-Za-z_$][\w$]*) from "([^"]+)";\s*$/gm;

/** The rewritten bootstrap: preloads, then the imports in their order, then React Router's own body. */
export function deferredBootstrap(source) {
  const sideEffects = [...source.matchAll(SIDE_EFFECT_IMPORT)].map((m) => m[1]);
  const namespaces = [...source.matchAll(NAMESPACE_IMPORT)].map((m) => ({ name: m[1], url: m[2] }));
  const body = source.replace(SIDE_EFFECT_IMPORT, '').replace(NAMESPACE_IMPORT, '').trim();
  const later = [...body.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]);
  const json = (value) => JSON.stringify(value);
  const first = sideEffects.map((url) => `import(${json(url)})`).join(',');
  const routes = namespaces.map(({ url }) => `import(${json(url)})`).join(',');
  const names = namespaces.map(({ name }) => name).join(',');
  // The modules the bootstrap names, fetched together (each names its own dependencies, which
  // follow one round trip later); preloading all 30 at once cost a long task on a slow phone.
  const preload = [...new Set([...sideEffects, ...namespaces.map(({ url }) => url), ...later])];
  return [
    `const preload=${json(preload)};let started=false;`,
    'const hydrate=()=>{if(started)return;started=true;',
    'document.head.append(...preload.map((href)=>{const link=document.createElement("link");link.rel="modulepreload";link.href=href;return link}));',
    `Promise.all([${first}]).then(()=>Promise.all([${routes}])).then(([${names}])=>{${body}})};`,
    // After the browser reports the first contentful paint; a frame and a task where it cannot;
    // at once in a hidden tab (nothing will paint); in any case within a second.
    'if(document.visibilityState==="hidden")hydrate();',
    'else if(self.PerformanceObserver?.supportedEntryTypes?.includes("paint"))new PerformanceObserver((list,observer)=>{if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();hydrate()}}).observe({type:"paint",buffered:true});',
    'else requestAnimationFrame(()=>setTimeout(hydrate,0));',
    'setTimeout(hydrate,1000);document.addEventListener("visibilitychange",hydrate,{once:true});',
  ].join('');
}

/** The page without module preloads, hydrating after the first paint. Idempotent. */
export function deferHydration(html) {
  html = revealBoundaries(html);
  const bootstrap = BOOTSTRAP.exec(html);
  const preloads = html.match(PRELOAD) ?? [];
  // Already rewritten (no static imports left), or not a React Router page.
  if (!bootstrap || !/^\s*import ["*]/m.test(bootstrap[1] ?? '')) return html;
  let out = html;
  for (const tag of preloads) out = out.replace(tag, '');
  const script = `<script type="module">${deferredBootstrap(bootstrap[1] ?? '')}</script>`;
  return out.replace(BOOTSTRAP, () => script);
}

const SEGMENT = /<div hidden id="S:(\d+)">([\s\S]*?)<\/div>/g;
const REVEAL_RUNTIME =
  /<script id="_R_">requestAnimationFrame\(function\(\)\{\$RT=performance\.now\(\)\}\);<\/script>/;
const REVEAL_CALL = /<script>(?:\$RB=\[\];[\s\S]*?)?\$RC\("B:(\d+)","S:(\d+)"\)<\/script>/g;

/**
 * React streams the parts of a prerendered page that sat behind a Suspense boundary (here only
 * React Router's data scripts) after the rest, with a small runtime that moves each into place
 * some 300 ms after the first frame. In a file made at build time everything has arrived, so
 * the page is written with every boundary already in place, as the runtime would leave it:
 * the same DOM for React to hydrate, without the runtime's script and its late DOM moves.
 * Pages with anything else from React's streaming runtime are left as they are.
 */
export function revealBoundaries(html) {
  const segments = new Map([...html.matchAll(SEGMENT)].map((m) => [m[1], m[2]]));
  if (segments.size === 0) return html;
  const calls = [...html.matchAll(REVEAL_CALL)];
  const unknownRuntime = html.replace(REVEAL_CALL, '').match(/\$R[A-Z]\(/);
  if (calls.length !== segments.size || unknownRuntime) return html;
  for (const content of segments.values()) if (/<div\b/.test(content)) return html;
  if (calls.some((m) => m[1] !== m[2] || !segments.has(m[2]))) return html;
  const fill = (content) =>
    content.replace(/<!--\$\?--><template id="B:(\d+)"><\/template><!--\/\$-->/g, (whole, id) =>
      segments.has(id) ? `<!--$-->${fill(segments.get(id))}<!--/$-->` : whole,
    );
  let out = html.replace(SEGMENT, '').replace(REVEAL_CALL, '').replace(REVEAL_RUNTIME, '');
  out = fill(out);
  // Every boundary must have found its content.
  return /<template id="B:\d+">/.test(out) ? html : out;
}

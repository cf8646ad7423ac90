/**
 * The contact form's cleaning (spec section 5): script, iframe, object and embed blocks,
 * `javascript:` strings and inline event-handler attributes are removed, then the value is
 * trimmed. It runs in the browser on submit and again on the server, through the same schema.
 *
 * This is not what makes e-mails safe (every value is HTML-escaped when rendered); it keeps
 * stored text free of the payloads a scanner or a careless viewer could trip over.
 *
 * One pass, left to right, in time linear in the length of the text. Characters are copied to
 * the output one by one; whenever the output then ends with one of the constructs below, that
 * construct is cut from the end of the output, and what comes next is checked against what is
 * left. So a construct that a removal puts together (`<scr<script></script>ipt>`) is found and
 * removed too, without going over the text again. For each output position the state of every
 * check is kept, so a cut costs no more than the characters it removes.
 *
 * What is removed:
 *  - `<script …>`, `<iframe …>`, `<object …>` with everything up to their closing tag
 *    (`</script>`, spaces allowed before the `>`); without one, everything to the end;
 *  - any other opening or closing tag of those three or of `embed` (embed has no closing
 *    tag), on its own. An opening tag that a removal put together is removed on its own: the
 *    text after it was never inside a block its writer opened;
 *  - `javascript:`, with the whitespace and control characters browsers skip inside it;
 *  - `on…=` attributes inside something that looks like a tag (`<` with no `>` since), with
 *    their quoted or bare value.
 */

/** The cleaned text and the work it took: one step per character read, scanned or unstacked. */
export type CleanResult = { text: string; steps: number };

const BLOCK_NAMES = ['script', 'iframe', 'object'] as const;
const TAG_NAMES = [...BLOCK_NAMES, 'embed'] as const;
type TagName = (typeof TAG_NAMES)[number];
const TAG_CODES = TAG_NAMES.map((name) => [...name].map((ch) => ch.charCodeAt(0)));
const JAVASCRIPT = [...'javascript:'].map((ch) => ch.charCodeAt(0));

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

/** What the regular expression `\s` matches. */
function isSpace(c: number): boolean {
  return (
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
/** What browsers skip inside a URL scheme: whitespace and control characters. */
const isSchemeFiller = (c: number) => c <= 0x1f || isSpace(c);
const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isWord = (c: number) => isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 0x20 : c);

/** Removes the dangerous constructs (none can be rebuilt by nesting), then trims. */
export function sanitizeText(value: string): string {
  return cleanText(value).text;
}

/**
 * Every construct above starts with `<` or ends with `:`; text with neither (most names,
 * addresses and messages) has nothing to remove, and is only trimmed.
 */
const NOTHING_TO_REMOVE = /^[^<:]*$/;

/** `sanitizeText`, with the number of steps it took (tests hold it linear). */
export function cleanText(value: string): CleanResult {
  if (NOTHING_TO_REMOVE.test(value)) return { text: value.trim(), steps: value.length };
  const n = value.length;
  let steps = 0;
  const out = new Uint16Array(n);
  let len = 0;
  // The state after each output length k (index k), so a cut back to k restores it as it was.
  const jsState = new Int32Array(n + 1); // how much of `javascript:` the output ends with
  const jsStart = new Int32Array(n + 1); // where that match began
  const openLt = new Int32Array(n + 1).fill(-1); // a `<` with no `>` after it, or -1
  const tagStart = new Int32Array(n + 1).fill(-1); // first `<name`/`</name` of TAG_NAMES since the last `>`
  const openStart = new Int32Array(n + 1).fill(-1); // first `<script`/`<iframe`/`<object` since the last `>`
  const letterStart = new Int32Array(n + 1); // start of the run of letters the output ends with
  const spaceStart = new Int32Array(n + 1); // start of the run of whitespace the output ends with
  // Opening tags of blocks still waiting for their closing tag, per name, in output order.
  const pending = new Map<TagName, number[]>(BLOCK_NAMES.map((name) => [name, []]));
  // Output positions where a cut joined two pieces of text that were not next to each other.
  const seams: number[] = [];

  const cut = (to: number) => {
    len = to;
    for (const stack of pending.values()) {
      while (stack.length > 0 && (stack.at(-1) ?? -1) >= to) {
        stack.pop();
        steps += 1;
      }
    }
    while (seams.length > 0 && (seams.at(-1) ?? -1) >= to) {
      seams.pop();
      steps += 1;
    }
    seams.push(to);
  };

  /** The tag name of TAG_NAMES that the output ends with, after `<` or `</`. */
  const nameEndingAt = (end: number): { start: number; name: TagName; closing: boolean } | undefined => {
    for (let t = 0; t < TAG_CODES.length; t += 1) {
      const codes = TAG_CODES[t] ?? [];
      const at = end - codes.length;
      if (at < 1) continue;
      let same = true;
      for (let k = 0; k < codes.length && same; k += 1) same = lower(out[at + k] ?? 0) === codes[k];
      if (!same) continue;
      const name = TAG_NAMES[t] as TagName;
      if (out[at - 1] === LT) return { start: at - 1, name, closing: false };
      if (out[at - 1] === SLASH && at >= 2 && out[at - 2] === LT)
        return { start: at - 2, name, closing: true };
    }
    return undefined;
  };
  const tagAt = (start: number) => {
    const closing = out[start + 1] === SLASH;
    const nameAt = start + (closing ? 2 : 1);
    const name = TAG_NAMES.find(
      (candidate) => lower(out[nameAt] ?? 0) === candidate.charCodeAt(0),
    ) as TagName;
    return { closing, name, nameEnd: nameAt + name.length };
  };
  const onlySpaces = (from: number, to: number) => {
    for (let k = from; k < to; k += 1) {
      steps += 1;
      if (!isSpace(out[k] ?? 0)) return false;
    }
    return true;
  };

  let nextDouble = -1;
  let nextSingle = -1;
  /** Past the value of an event-handler attribute starting at `i`: quoted, or bare. */
  const skipValue = (from: number): number => {
    let i = from;
    while (i < n && isSpace(value.charCodeAt(i))) i += 1;
    const quote = value.charCodeAt(i);
    if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
      // The next quote of the same kind, found once for every position past the last one.
      let close = quote === DOUBLE_QUOTE ? nextDouble : nextSingle;
      if (close !== -2 && close <= i) {
        close = value.indexOf(String.fromCharCode(quote), i + 1);
        if (close === -1) close = -2;
        steps += (close === -2 ? n : close) - i;
        if (quote === DOUBLE_QUOTE) nextDouble = close;
        else nextSingle = close;
      }
      if (close >= 0) return close + 1;
    }
    while (i < n && !isSpace(value.charCodeAt(i)) && value.charCodeAt(i) !== GT) i += 1;
    return i;
  };

  letterStart[0] = 0;
  spaceStart[0] = 0;
  let i = 0;
  while (i < n) {
    steps += 1;
    const c = value.charCodeAt(i);
    const p = len;

    // `javascript:`: the whole match goes.
    let js = jsState[p] ?? 0;
    let jsFrom = jsStart[p] ?? 0;
    if (js > 0 && isSchemeFiller(c)) {
      // skipped inside the scheme, as browsers do
    } else if (lower(c) === JAVASCRIPT[js]) {
      if (js === 0) jsFrom = p;
      js += 1;
    } else if (lower(c) === JAVASCRIPT[0]) {
      js = 1;
      jsFrom = p;
    } else {
      js = 0;
    }
    if (js === JAVASCRIPT.length) {
      cut(jsFrom);
      i += 1;
      continue;
    }

    // `on…=` inside a tag: the attribute, its value and the whitespace or `/` before it go.
    if (c === EQUALS) {
      const letters = spaceStart[p] ?? p;
      const word = letterStart[letters] ?? letters;
      const before = out[word - 1] ?? 0;
      if (
        letters - word >= 3 &&
        lower(out[word] ?? 0) === 0x6f &&
        lower(out[word + 1] ?? 0) === 0x6e &&
        word >= 1 &&
        (isSpace(before) || before === SLASH) &&
        (openLt[word - 1] ?? -1) >= 0
      ) {
        cut(word - 1);
        const next = skipValue(i + 1);
        steps += next - (i + 1);
        i = next;
        continue;
      }
    }

    // Tags of TAG_NAMES: a name followed by a character that ends a word starts one.
    let tag = tagStart[p] ?? -1;
    let open = openStart[p] ?? -1;
    if (!isWord(c)) {
      const named = nameEndingAt(p);
      if (named) {
        if (tag < 0) tag = named.start;
        if (open < 0 && !named.closing && named.name !== 'embed') open = named.start;
      }
    }
    if (c === GT && tag >= 0) {
      const { closing, name, nameEnd } = tagAt(tag);
      const waiting = pending.get(name);
      if (closing) {
        // `</name>` ends the block its first waiting opening tag began; anything else goes alone.
        const first = waiting?.[0];
        cut(first !== undefined && onlySpaces(nameEnd, p) ? first : tag);
        i += 1;
        continue;
      }
      const joined = (seams.at(-1) ?? -1) > tag;
      if (!waiting || joined) {
        cut(tag);
        i += 1;
        continue;
      }
      waiting.push(tag);
    }

    out[p] = c;
    len = p + 1;
    jsState[len] = js;
    jsStart[len] = jsFrom;
    openLt[len] = c === GT ? -1 : (openLt[p] ?? -1) >= 0 ? (openLt[p] ?? -1) : c === LT ? p : -1;
    tagStart[len] = c === GT ? -1 : tag;
    openStart[len] = c === GT ? -1 : open;
    letterStart[len] = isLetter(c) ? (letterStart[p] ?? p) : len;
    spaceStart[len] = isSpace(c) ? (spaceStart[p] ?? p) : len;
    i += 1;
  }

  // At the end: a block never closed, or an opening tag never finished, takes the rest with it.
  for (;;) {
    steps += 1;
    let from = openStart[len] ?? -1;
    const named = nameEndingAt(len);
    if (named && !named.closing && named.name !== 'embed' && (from < 0 || named.start < from)) {
      from = named.start;
    }
    for (const stack of pending.values()) {
      const first = stack[0];
      if (first !== undefined && (from < 0 || first < from)) from = first;
    }
    if (from < 0) break;
    cut(from);
  }

  let text = '';
  for (let k = 0; k < len; k += 8192)
    text += String.fromCharCode(...out.subarray(k, Math.min(len, k + 8192)));
  return { text: text.trim(), steps };
}

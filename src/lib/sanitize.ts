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
  const pass = new Pass(value);
  pass.run();
  return { text: pass.text().trim(), steps: pass.steps };
}

/** A tag of TAG_NAMES that the output ends with: where its `<` is, its name, and whether it is `</name`. */
type NamedTag = { start: number; name: TagName; closing: boolean };

/**
 * The one pass over a value: the output so far, and for each output length the state of every
 * check (see the top of this file), so that a cut back to a length restores them as they were.
 */
class Pass {
  private readonly n: number;
  steps = 0;
  private readonly out: Uint16Array;
  private len = 0;
  // The state after each output length k (index k), so a cut back to k restores it as it was.
  private readonly jsState: Int32Array; // how much of `javascript:` the output ends with
  private readonly jsStart: Int32Array; // where that match began
  private readonly openLt: Int32Array; // a `<` with no `>` after it, or -1
  private readonly tagStart: Int32Array; // first `<name`/`</name` of TAG_NAMES since the last `>`
  private readonly openStart: Int32Array; // first `<script`/`<iframe`/`<object` since the last `>`
  private readonly letterStart: Int32Array; // start of the run of letters the output ends with
  private readonly spaceStart: Int32Array; // start of the run of whitespace the output ends with
  // Opening tags of blocks still waiting for their closing tag, per name, in output order.
  private readonly pending = new Map<TagName, number[]>(BLOCK_NAMES.map((name) => [name, []]));
  // Output positions where a cut joined two pieces of text that were not next to each other.
  private readonly seams: number[] = [];
  // The next quote of each kind past the last one looked for (-2: none left).
  private nextDouble = -1;
  private nextSingle = -1;
  // The checks' state with the character being read added, before it is kept.
  private js = 0;
  private jsFrom = 0;
  private tag = -1;
  private open = -1;

  constructor(private readonly value: string) {
    const n = value.length;
    this.n = n;
    this.out = new Uint16Array(n);
    this.jsState = new Int32Array(n + 1);
    this.jsStart = new Int32Array(n + 1);
    this.openLt = new Int32Array(n + 1).fill(-1);
    this.tagStart = new Int32Array(n + 1).fill(-1);
    this.openStart = new Int32Array(n + 1).fill(-1);
    this.letterStart = new Int32Array(n + 1);
    this.spaceStart = new Int32Array(n + 1);
  }

  /** Reads every character, then removes what was left open at the end. */
  run(): void {
    const { n, value } = this;
    let i = 0;
    while (i < n) {
      this.steps += 1;
      const c = value.charCodeAt(i);
      const p = this.len;
      // `javascript:`: the whole match goes.
      if (this.scheme(c, p)) {
        this.cut(this.jsFrom);
        i += 1;
        continue;
      }
      // `on…=` inside a tag: the attribute, its value and the whitespace or `/` before it go.
      const handler = c === EQUALS ? this.handlerBefore(p) : -1;
      if (handler >= 0) {
        this.cut(handler - 1);
        const next = this.skipValue(i + 1);
        this.steps += next - (i + 1);
        i = next;
        continue;
      }
      this.tags(c, p);
      if (c === GT && this.tag >= 0 && this.endOfTag(p)) {
        i += 1;
        continue;
      }
      this.keep(c, p);
      i += 1;
    }
    this.unclosed();
  }

  /** The output as text. */
  text(): string {
    let text = '';
    for (let k = 0; k < this.len; k += 8192)
      text += String.fromCharCode(...this.out.subarray(k, Math.min(this.len, k + 8192)));
    return text;
  }

  /** `c` after an output of length `p` in the match of `javascript:`; true when it completes it. */
  private scheme(c: number, p: number): boolean {
    let js = this.jsState[p] ?? 0;
    let jsFrom = this.jsStart[p] ?? 0;
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
    this.js = js;
    this.jsFrom = jsFrom;
    return js === JAVASCRIPT.length;
  }

  /**
   * Before an `=` after an output of length `p`: where the `on…` attribute name it ends begins,
   * when it is one inside a tag (after whitespace or `/`); otherwise -1.
   */
  private handlerBefore(p: number): number {
    const { out } = this;
    const letters = this.spaceStart[p] ?? p;
    const word = this.letterStart[letters] ?? letters;
    const before = out[word - 1] ?? 0;
    return letters - word >= 3 &&
      lower(out[word] ?? 0) === 0x6f &&
      lower(out[word + 1] ?? 0) === 0x6e &&
      word >= 1 &&
      (isSpace(before) || before === SLASH) &&
      (this.openLt[word - 1] ?? -1) >= 0
      ? word
      : -1;
  }

  /** Tags of TAG_NAMES: a name followed by a character that ends a word starts one. */
  private tags(c: number, p: number): void {
    this.tag = this.tagStart[p] ?? -1;
    this.open = this.openStart[p] ?? -1;
    if (isWord(c)) return;
    const named = this.nameEndingAt(p);
    if (!named) return;
    if (this.tag < 0) this.tag = named.start;
    if (this.open < 0 && !named.closing && named.name !== 'embed') this.open = named.start;
  }

  /**
   * The `>` that ends the tag begun at `this.tag`: true when it was cut (with what it ends), false
   * when it opens a block that waits for its closing tag and is kept.
   */
  private endOfTag(p: number): boolean {
    const tag = this.tag;
    const { closing, name, nameEnd } = this.tagAt(tag);
    const waiting = this.pending.get(name);
    if (closing) {
      // `</name>` ends the block its first waiting opening tag began; anything else goes alone.
      const first = waiting?.[0];
      this.cut(first !== undefined && this.onlySpaces(nameEnd, p) ? first : tag);
      return true;
    }
    const joined = (this.seams.at(-1) ?? -1) > tag;
    if (!waiting || joined) {
      this.cut(tag);
      return true;
    }
    waiting.push(tag);
    return false;
  }

  /** `c` goes to the output, after `p` characters, with the checks' state after it. */
  private keep(c: number, p: number): void {
    this.out[p] = c;
    const len = p + 1;
    this.len = len;
    this.jsState[len] = this.js;
    this.jsStart[len] = this.jsFrom;
    this.openLt[len] =
      c === GT ? -1 : (this.openLt[p] ?? -1) >= 0 ? (this.openLt[p] ?? -1) : c === LT ? p : -1;
    this.tagStart[len] = c === GT ? -1 : this.tag;
    this.openStart[len] = c === GT ? -1 : this.open;
    this.letterStart[len] = isLetter(c) ? (this.letterStart[p] ?? p) : len;
    this.spaceStart[len] = isSpace(c) ? (this.spaceStart[p] ?? p) : len;
  }

  /** At the end: a block never closed, or an opening tag never finished, takes the rest with it. */
  private unclosed(): void {
    for (;;) {
      this.steps += 1;
      let from = this.openStart[this.len] ?? -1;
      const named = this.nameEndingAt(this.len);
      if (named && !named.closing && named.name !== 'embed' && (from < 0 || named.start < from)) {
        from = named.start;
      }
      for (const stack of this.pending.values()) {
        const first = stack[0];
        if (first !== undefined && (from < 0 || first < from)) from = first;
      }
      if (from < 0) break;
      this.cut(from);
    }
  }

  /** The output is cut back to length `to`; blocks opened past it are forgotten. */
  private cut(to: number): void {
    this.len = to;
    for (const stack of this.pending.values()) {
      while (stack.length > 0 && (stack.at(-1) ?? -1) >= to) {
        stack.pop();
        this.steps += 1;
      }
    }
    const { seams } = this;
    while (seams.length > 0 && (seams.at(-1) ?? -1) >= to) {
      seams.pop();
      this.steps += 1;
    }
    seams.push(to);
  }

  /** The tag name of TAG_NAMES that the output ends with, after `<` or `</`. */
  private nameEndingAt(end: number): NamedTag | undefined {
    const { out } = this;
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
  }

  /** The tag whose `<` is at `start` in the output. */
  private tagAt(start: number) {
    const { out } = this;
    const closing = out[start + 1] === SLASH;
    const nameAt = start + (closing ? 2 : 1);
    const name = TAG_NAMES.find(
      (candidate) => lower(out[nameAt] ?? 0) === candidate.charCodeAt(0),
    ) as TagName;
    return { closing, name, nameEnd: nameAt + name.length };
  }

  /** Whether the output holds only whitespace from `from` to `to`. */
  private onlySpaces(from: number, to: number): boolean {
    for (let k = from; k < to; k += 1) {
      this.steps += 1;
      if (!isSpace(this.out[k] ?? 0)) return false;
    }
    return true;
  }

  /** Past the value of an event-handler attribute starting at `from`: quoted, or bare. */
  private skipValue(from: number): number {
    const { n, value } = this;
    let i = from;
    while (i < n && isSpace(value.charCodeAt(i))) i += 1;
    const quote = value.charCodeAt(i);
    if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
      // The next quote of the same kind, found once for every position past the last one.
      let close = quote === DOUBLE_QUOTE ? this.nextDouble : this.nextSingle;
      if (close !== -2 && close <= i) {
        close = value.indexOf(String.fromCharCode(quote), i + 1);
        if (close === -1) close = -2;
        this.steps += (close === -2 ? n : close) - i;
        if (quote === DOUBLE_QUOTE) this.nextDouble = close;
        else this.nextSingle = close;
      }
      if (close >= 0) return close + 1;
    }
    while (i < n && !isSpace(value.charCodeAt(i)) && value.charCodeAt(i) !== GT) i += 1;
    return i;
  }
}

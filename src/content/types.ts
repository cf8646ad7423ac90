/**
 * Shapes of the display data the pages render. Icons are named here, not imported: content
 * stays plain data, and each page maps the names its content uses to drawings (so a page
 * bundles only its own icons; TypeScript checks that every name used has one).
 */
export type IconName =
  | 'graduation-cap'
  | 'compass'
  | 'bot'
  | 'shield-check'
  | 'target'
  | 'trending-up'
  | 'users'
  | 'calendar'
  | 'clock'
  | 'video'
  | 'mail'
  | 'phone'
  | 'map-pin'
  | 'book-open'
  | 'file-text'
  | 'message-circle'
  | 'handshake'
  | 'sparkles'
  | 'lightbulb'
  | 'award'
  | 'briefcase'
  | 'bar-chart'
  | 'lock'
  | 'check';

export type Seo = { readonly title: string; readonly description: string };

export type CallToAction = { readonly label: string; readonly to: string };

/** The spec's plan card: title, price, description, features list, cta, link, primary flag. */
export type PlanCard<I extends IconName = IconName> = {
  readonly title: string;
  readonly price: string;
  /** Small print beside the price, e.g. "per month" or "cancel anytime". */
  readonly priceNote?: string;
  readonly description: string;
  readonly features: readonly string[];
  readonly cta: string;
  /** Heard after the cta by screen readers when the label alone ('Learn More') does not say where it goes. */
  readonly ctaContext?: string;
  readonly link: string;
  readonly primary: boolean;
  /** A line under the button, e.g. when the offer becomes available. */
  readonly note?: string;
  readonly icon: I;
};

/** The spec's testimonial: quote, author, title (role and city). */
export type Testimonial = { readonly quote: string; readonly author: string; readonly title: string };

/** The spec's article: title, excerpt, date, type. `date` is ISO (YYYY-MM-DD). */
export type Feature<I extends IconName = IconName> = {
  readonly icon: I;
  readonly title: string;
  readonly text: string;
};

export type Faq = { readonly question: string; readonly answer: string };

/** A block of a legal page: a heading and paragraphs, lists or tables of plain text. */
export type LegalBlock =
  | { readonly kind: 'p'; readonly text: string }
  | { readonly kind: 'ul'; readonly items: readonly string[] }
  | {
      readonly kind: 'table';
      readonly caption: string;
      readonly head: readonly string[];
      readonly rows: readonly (readonly string[])[];
    };

export type LegalSection = {
  readonly id: string;
  readonly heading: string;
  readonly blocks: readonly LegalBlock[];
};

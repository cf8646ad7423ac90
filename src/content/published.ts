/**
 * What the owner has published, as the server hands it to the pages it renders at publication
 * (decision 047): read from the database by the features that own it, composed by the server's
 * composition root, read by the route loaders from their context (src/app/published.ts). A part
 * left out is one the build's prerendered pages already show as they should.
 */
import type { ArticleDoc } from './articles';
import type { BusinessDetails } from './business';

/**
 * A masterclass as its page shows it when it is rendered: what changes only when the owner
 * changes the event. Places left and whether registration is open are asked after hydration.
 */
export type PublishedMasterclass = {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly summary: string;
  /** ISO instants (UTC). */
  readonly startsAt: string;
  readonly endsAt: string;
  readonly mode: 'online' | 'in-person';
  /** Where, in person; null online (the joining link is never public). */
  readonly place: string | null;
  readonly cancelled: boolean;
};

/** A newsletter issue on the site's archive (`/newsletter/<slug>`): its own text, nothing personal. */
export type PublishedIssue = {
  readonly slug: string;
  readonly subject: string;
  readonly preheader: string;
  /** The UK day it was sent, YYYY-MM-DD. */
  readonly date: string;
  /** Its Markdown rendered safely by the server, as an article's is. */
  readonly html: string;
};

export type Published = {
  /** The published articles, newest first, their Markdown rendered safely by the server. */
  readonly articles: readonly ArticleDoc[];
  /** The business's own details (footer, Contact, About, Home); none until the owner sets them. */
  readonly business?: BusinessDetails | null;
  /**
   * The published masterclasses (cancelled ones too), soonest first; left out, the build's
   * pages (no masterclass) stand.
   */
  readonly masterclasses?: readonly PublishedMasterclass[];
  /** The newsletter's issues on the site, newest first; left out, the build's empty archive stands. */
  readonly newsletter?: readonly PublishedIssue[];
};

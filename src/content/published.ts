/**
 * What the owner has published, as the server hands it to the pages it renders at publication
 * (decision 047): read from the database by the features that own it, composed by the server's
 * composition root, read by the route loaders from their context (src/app/published.ts). A part
 * left out is one the build's prerendered pages already show as they should.
 */
import type { ArticleDoc } from './articles';

export type Published = {
  /** The published articles, newest first, their Markdown rendered safely by the server. */
  readonly articles: readonly ArticleDoc[];
};

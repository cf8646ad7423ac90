/**
 * What the owner has published, handed to the route loaders when the server renders the
 * published pages at publish time (decision 047, `src/server/root/site/render-worker.ts`). When
 * the build prerenders the pages there is none, and the loaders read the repository's Markdown
 * articles instead (what a new database imports once, so the two agree until the owner edits).
 */
import { createContext, RouterContextProvider } from 'react-router';
import type { Published } from '~/content/published';

export type { Published } from '~/content/published';

export const publishedContext = createContext<Published | null>(null);

/** The loaders' context for one render of the published pages. */
export function publishedLoadContext(published: Published): RouterContextProvider {
  return new RouterContextProvider(new Map([[publishedContext, published]]));
}

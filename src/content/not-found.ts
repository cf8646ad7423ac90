import type { Seo } from './types';

export const notFoundSeo: Seo = {
  title: 'Page not found',
  description: 'The page you were looking for does not exist.',
};

export const notFound = {
  code: '404',
  title: 'Oops! Page not found',
  text: 'The page you are looking for may have moved, or the address may be mistyped. Everything on the site is a click away from the home page.',
  cta: { label: 'Return to Home', to: '/' },
  /** Logged to the console with the missing path, as the spec asks. */
  logMessage: '404 Error: User attempted to access non-existent route:',
};

/**
 * The Lighthouse anchor (decision 027): a React Router app with none of the site's code, built
 * and prerendered the way the site is (framework mode, no server rendering, `/` as HTML). Built
 * from this folder by the bench, into a cache folder where its prerender resolves the packages.
 */
import type { Config } from '@react-router/dev/config';

export default {
  buildDirectory: '../../node_modules/.cache/bench-anchor',
  ssr: false,
  prerender: ['/'],
} satisfies Config;

import type { Config } from '@react-router/dev/config';
import { articleSlugs } from './scripts/articles';
import { articlePath } from './src/content/articles';
import { PRERENDER_PATHS } from './src/content/routes';

export default {
  appDirectory: 'src/app',
  // BUILD_DIR lets a second build (the voice tests' keyed build) sit beside the default one.
  buildDirectory: process.env.BUILD_DIR || 'build',
  ssr: false,
  // Every public path and every article becomes real HTML at build time; the server answers unknown
  // paths with the prerendered not-found page and status 404.
  prerender: [...PRERENDER_PATHS, ...articleSlugs().map(articlePath)],
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;

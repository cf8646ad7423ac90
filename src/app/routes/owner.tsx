import { consoleMeta } from '~/content/console';
import { CONSOLE_PATH } from '~/content/routes';
import { pageMeta } from '~/lib/seo';
import Console from '~/console/console';
// Its own stylesheet, linked by this page alone (the site's leaves the console out).
import '~/console/console.css';

export const meta = () => pageMeta({ path: CONSOLE_PATH, ...consoleMeta, noindex: true });

/** The console installs as an app of its own (decision 041): its manifest and icon. */
export const links = () => [
  { rel: 'manifest', href: `${CONSOLE_PATH}/manifest.webmanifest` },
  { rel: 'apple-touch-icon', href: `${CONSOLE_PATH}/icon-192.png` },
];

/** The owner's console: client-rendered; its prerendered shell holds no personal data. */
export default Console;

import { consoleMeta } from '~/content/console';
import { CONSOLE_PATH } from '~/content/routes';
import { pageMeta } from '~/lib/seo';
import Console from '~/console/console';
// Its own stylesheet, linked by this page alone (the site's leaves the console out).
import '~/console/console.css';

export const meta = () => pageMeta({ path: CONSOLE_PATH, ...consoleMeta, noindex: true });

/** The owner's console: client-rendered; its prerendered shell holds no personal data. */
export default Console;

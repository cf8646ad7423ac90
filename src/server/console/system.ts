/**
 * The System page's area (decision 057): what the backups, the drill, the database, the disk and
 * the outbox look like now, and "Back up now", which starts a backup and answers at once (the page
 * follows it). The owner's alone.
 */
import { systemRoutes, type SystemView } from '~/contract/system';
import { audit } from '../kit/audit';
import type { BackupService } from '../kit/backup/service';
import type { ConsoleArea } from '../kit/http/owner-routes';

export const systemArea =
  (backups: BackupService, status: (running: boolean, now: Date) => Promise<SystemView>): ConsoleArea =>
  (routes, { db, clock }) => {
    routes.on(systemRoutes.view, () => status(backups.running(), clock()));
    routes.on(systemRoutes.backup, async ({ owner }) => {
      const started = backups.start('on demand');
      if (started) await audit(db, owner.email, 'backup.start');
      return { ok: true as const, started };
    });
  };

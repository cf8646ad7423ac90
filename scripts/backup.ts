#!/usr/bin/env node
/**
 * `npm run backup`: takes a backup of the server's database now, verifies it, keeps it in
 * BACKUP_DIR and copies it off the machine (BACKUP_COPY_COMMAND). Run it on the server's machine,
 * as the server's user, with its settings (`--env-file`): beside the running server or with it
 * stopped. `npm run backup -- --new-key` prints a key pair for encrypted backups (decision 057).
 */
import { ConfigError, loadConfig } from '../src/server/kit/config';
import { backupCommand, commandRefusal, newKeyCommand } from '../src/server/kit/backup/cli';

const say = (line: string) => console.log(line);
try {
  if (process.argv.includes('--new-key')) await newKeyCommand(say);
  else await backupCommand(loadConfig(), say);
} catch (error) {
  const sentence = error instanceof ConfigError ? error.message : commandRefusal(error);
  if (!sentence) throw error;
  console.error(sentence);
  process.exitCode = 1;
}

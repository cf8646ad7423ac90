#!/usr/bin/env node
/**
 * `npm run restore -- <backup | latest> [--identity <key file>] [--port 3001] [--no-sandbox]`:
 * verifies a backup, restores it into a new database (never over the live one), counts every
 * table against its manifest and serves it in a sandbox until Ctrl-C.
 * `npm run restore -- --activate <database>`: with the server stopped, makes that database the
 * live one and keeps the one it replaces (decision 057).
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/server/kit/config';
import { activateCommand, commandRefusal, restoreCommand } from '../src/server/kit/backup/cli';

const say = (line: string) => console.log(line);
try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      activate: { type: 'string' },
      identity: { type: 'string' },
      port: { type: 'string', default: '3001' },
      'no-sandbox': { type: 'boolean', default: false },
    },
  });
  const config = loadConfig();
  if (values.activate) {
    await activateCommand(config, values.activate, say);
  } else {
    const backup = positionals[0];
    const port = Number(values.port);
    if (!backup || !Number.isInteger(port) || port < 1 || port > 65535) {
      console.error(
        'Usage: npm run restore -- <backup folder | backup name | latest> [--identity <key file>] [--port 3001] [--no-sandbox]',
      );
      console.error('       npm run restore -- --activate <database>');
      process.exit(2);
    }
    await restoreCommand(
      config,
      { backup, identityFile: values.identity, port, sandbox: !values['no-sandbox'] },
      say,
    );
  }
} catch (error) {
  const sentence =
    error instanceof ConfigError
      ? error.message
      : (commandRefusal(error) ??
        ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
          ? (error as Error).message
          : undefined));
  if (!sentence) throw error;
  console.error(sentence);
  process.exitCode = 1;
}

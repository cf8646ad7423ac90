/** Starts the server: reads the configuration, builds the app, listens, and shuts down gracefully. */
import { buildApp } from './app';
import { ConfigError, loadConfig } from '../kit/config';
import { configWarnings } from '../console/overview';

/** A setting refused at start: said as a sentence. */
function refuse(error: ConfigError): never {
  console.error(error.message);
  process.exit(1);
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) refuse(error);
    throw error;
  }
  let app;
  try {
    app = await buildApp({ config });
  } catch (error) {
    // A setting that only meets its limit at start (the bounce listener's port).
    if (error instanceof ConfigError) refuse(error);
    throw error;
  }
  // Settings a production server must be given: warned of here and shown in the owner's console.
  for (const warning of configWarnings(config)) app.log.warn(warning);
  await app.listen({ port: config.port, host: config.host });
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Site ready at http://${shown}:${port}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

await main();

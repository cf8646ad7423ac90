#!/usr/bin/env node
/**
 * `npm start`: runs the server bundle of the build (`BUILD_DIR`, default `build`), made by
 * `npm run build`.
 *
 * Two V8 settings keep the server's memory near 150 MB under load (decision 009), set here
 * before anything is compiled so that every way of starting the server gets them:
 *  - `--liftoff-only`: the embedded database's WebAssembly stays on V8's baseline compiler;
 *    optimising all of Postgres costs some 40 MB of code for no gain on the site's queries;
 *  - `--optimize-for-size`: the JavaScript heap grows in smaller steps.
 * A third, `--max-semi-space-size`, is on the command line of package.json's `start` script
 * (decision 015): V8 reads it only when the main thread's heap is created, before this runs.
 *
 * Then, before the server's code, it starts the embedded database's thread (decision 051).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { BUILD_DIR } from './build-settings.mjs';

for (const flag of ['--liftoff-only', '--optimize-for-size']) setFlagsFromString(flag);

// The embedded database's thread opens while the server's code loads, on the other core
// (decision 051; `DATABASE_EARLY_START=false` switches it off).
const { startEarly } = await import(pathToFileURL(join(BUILD_DIR, 'server', 'pglite-early.mjs')).href);
startEarly(process.env);

await import(pathToFileURL(join(BUILD_DIR, 'server', 'main.mjs')).href);

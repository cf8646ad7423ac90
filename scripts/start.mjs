#!/usr/bin/env node
/**
 * `npm start`: runs the server bundle of the build (`BUILD_DIR`, default `build`), made by
 * `npm run build`.
 *
 * `--optimize-for-size` keeps the server's memory down under load (decision 009): the JavaScript
 * heap grows in smaller steps. It is set here, before anything is compiled, so that every way of
 * starting the server gets it. `--max-semi-space-size` is on the command line of package.json's
 * `start` script (decision 015): V8 reads it only when the main thread's heap is created, before
 * this runs.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { BUILD_DIR } from './build-settings.mjs';

setFlagsFromString('--optimize-for-size');

await import(pathToFileURL(join(BUILD_DIR, 'server', 'main.mjs')).href);

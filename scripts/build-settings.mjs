/**
 * The settings that are baked into the browser build. `npm start` rebuilds when any of them
 * differs from the stamp the last build wrote, or when a source file is newer than it.
 */
import { join, resolve } from 'node:path';

/** Where the build goes: `BUILD_DIR`, the variable the server reads it from (default `build`). */
export const BUILD_DIR = resolve(process.env.BUILD_DIR || 'build');
export const CLIENT_DIR = join(BUILD_DIR, 'client');
export const STAMP_FILE = join(BUILD_DIR, 'build-stamp.json');

export function buildSettings() {
  return {
    publicUrl: (process.env.PUBLIC_URL || 'http://localhost:3000').replace(/\/+$/, ''),
    vapiPublicKey: process.env.VITE_VAPI_PUBLIC_KEY || '',
    vapiAssistantId: process.env.VITE_VAPI_ASSISTANT_ID || '',
  };
}

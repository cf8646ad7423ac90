/**
 * The settings that are baked into the browser build. `npm start` rebuilds when any of them
 * differs from the stamp the last build wrote, or when a source file is newer than it.
 */
import { resolve } from 'node:path';

export const BUILD_DIR = resolve('build');
export const CLIENT_DIR = resolve('build/client');
export const STAMP_FILE = resolve('build/build-stamp.json');

export function buildSettings() {
  return {
    publicUrl: (process.env.PUBLIC_URL || 'http://localhost:3000').replace(/\/+$/, ''),
    vapiPublicKey: process.env.VITE_VAPI_PUBLIC_KEY || '',
    vapiAssistantId: process.env.VITE_VAPI_ASSISTANT_ID || '',
  };
}

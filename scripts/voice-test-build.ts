/**
 * The build the voice simulator's browser tests run against: the production build with a
 * test key and assistant id baked in, in its own folder, so the default build (no key, which
 * every other test uses) stays as it is. The provider is never reached: the tests answer its
 * hosts themselves.
 *
 *   node --import tsx scripts/voice-test-build.ts               build it
 *   node --import tsx scripts/voice-test-build.ts --if-missing  only when there is none yet
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const VOICE_TEST_BUILD_DIR = 'build-voice';
export const VOICE_TEST_PUBLIC_KEY = 'e2e-test-public-key';
export const VOICE_TEST_ASSISTANT_ID = 'e2e-test-assistant-elliot';

export const voiceTestBuildEnv = {
  BUILD_DIR: VOICE_TEST_BUILD_DIR,
  VITE_VAPI_PUBLIC_KEY: VOICE_TEST_PUBLIC_KEY,
  VITE_VAPI_ASSISTANT_ID: VOICE_TEST_ASSISTANT_ID,
};

function main(): void {
  const stamp = join(resolve(VOICE_TEST_BUILD_DIR), 'build-stamp.json');
  if (process.argv.includes('--if-missing') && existsSync(stamp)) return;
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], {
    stdio: 'inherit',
    env: { ...process.env, ...voiceTestBuildEnv },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();

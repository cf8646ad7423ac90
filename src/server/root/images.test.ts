/**
 * The owner's uploaded images are made in a process of their own (decision 050): a refusal comes
 * back as the ImageRefusal it was, with its sentence; a photo comes back written again at the pages' size; the work
 * runs in a child process, which ends once idle.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { childProcessIds } from '../kit/child-processes.fixture';
import { ImageRefusal } from '../kit/images';
import { imageProcess, type ImageProcess } from './images';

// A bound for a child process that never answers, not an expectation of speed: starting Node and
// sharp takes seconds on a loaded machine.
describe('the image process', { timeout: 60_000 }, () => {
  let images: ImageProcess | undefined;
  afterEach(async () => {
    await images?.stop();
  });

  it('answers a refusal as the ImageRefusal it was, with its sentence', async () => {
    images = imageProcess(60_000);
    const refused = await images
      .photo(new Uint8Array(Buffer.from('Just some words, not a photo at all.')))
      .catch((e) => e);
    expect(refused).toBeInstanceOf(ImageRefusal);
    expect((refused as Error).message).toBe(
      'That file is not a JPEG, PNG or WebP image. Please choose a photo in one of those.',
    );
  });

  it('writes a photo again in a child process, which ends once idle', async () => {
    const before = childProcessIds();
    images = imageProcess(300);
    const png = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#13315c' } })
      .png()
      .toBuffer();
    const cleaned = await images.photo(new Uint8Array(png));
    // Written again at the pages' size (PHOTO_SHORT_SIDE), in the child process.
    expect(cleaned).toMatchObject({ type: 'image/png', width: 480, height: 480 });
    expect(cleaned.bytes.length).toBeGreaterThan(0);
    const started = childProcessIds().filter((pid) => !before.includes(pid));
    expect(started).toHaveLength(1);
    const end = Date.now() + 30_000;
    while (Date.now() < end && childProcessIds().some((pid) => started.includes(pid))) await sleep(20);
    expect(childProcessIds().filter((pid) => started.includes(pid))).toEqual([]);
  });
});

/**
 * A backup's manifest (decision 057): what the folder holds, part by part, each with its size and
 * SHA-256 as stored (compressed, and encrypted when a key is set), and every table's row count in
 * the snapshot. Verifying a backup is reading every part again against it: it needs no key, so
 * an encrypted backup is verified where it is kept, and a damaged one is refused with a sentence
 * naming the part.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';

export const MANIFEST_FILE = 'manifest.json';
/** A backup's folder name: `backup-2026-12-07T03-00-00-000Z`, sorting by time. */
export const BACKUP_NAME = /^backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** A part's file, inside the backup's folder: no way out of it. */
const partFile = z.string().regex(/^(tables|files)\/[A-Za-z0-9_.-]+$/);
const part = z.object({
  file: partFile,
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

export const manifestSchema = z.object({
  format: z.literal(1),
  name: z.string().regex(BACKUP_NAME),
  takenAt: z.string(),
  reason: z.enum(['scheduled', 'on demand', 'before upgrade']),
  release: z.object({ version: z.string(), commit: z.string().optional() }),
  database: z.object({ driver: z.enum(['embedded', 'postgres']), serverVersion: z.string() }),
  /** The migrations the database had, by tag, oldest first (the release's journal). */
  migrations: z.array(z.object({ tag: z.string(), when: z.number() })),
  tables: z.array(
    part.extend({
      // Only the site's and the migrations' schemas: a restore writes nowhere else.
      schema: z.enum(['public', 'drizzle']),
      name: z.string().regex(/^[a-z_][a-z0-9_]*$/),
      columns: z.array(z.string().regex(/^[a-z_][a-z0-9_]*$/)).min(1),
      rows: z.number().int().nonnegative(),
    }),
  ),
  /** The secret and the DKIM key the server kept in DATA_DIR, when it did. */
  files: z.array(part.extend({ name: z.string() })),
  /** The age recipient the parts were encrypted to, or null. */
  encryptedTo: z.string().nullable(),
  seconds: z.number(),
});

export type Manifest = z.infer<typeof manifestSchema>;
export type TablePart = Manifest['tables'][number];

/** A backup that cannot be trusted: the message names the part and says nothing was restored. */
export class BackupDamaged extends Error {}

/** The SHA-256 of a file, read as a stream. */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The manifest of the backup in `dir`, checked against its schema. */
export function readManifest(dir: string): Manifest {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    throw new BackupDamaged(
      `The backup ${basename(dir)} has no readable manifest (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): it is not a whole backup.`,
    );
  }
  const parsed = manifestSchema.safeParse(safeJson(text));
  if (!parsed.success) {
    throw new BackupDamaged(
      `The manifest of the backup ${basename(dir)} is damaged: it is not a manifest this release reads.`,
    );
  }
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a part is, in words: "the table public.submissions", "the file .app-secret". */
export function partLabel(p: Manifest['tables'][number] | Manifest['files'][number]): string {
  return 'schema' in p ? `the table ${p.schema}.${p.name}` : `the file ${p.name}`;
}

/**
 * Reads every part of the backup in `dir` again against its manifest. Returns the manifest, or
 * throws BackupDamaged naming the first part missing, of another size or another checksum.
 */
export async function verifyBackup(dir: string): Promise<Manifest> {
  const manifest = readManifest(dir);
  for (const p of [...manifest.tables, ...manifest.files]) {
    const file = join(dir, p.file);
    const damaged = (why: string) =>
      new BackupDamaged(
        `The backup ${manifest.name} is damaged: ${p.file} (${partLabel(p)}) ${why}. Nothing was restored from it; use another backup.`,
      );
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      throw damaged('is missing');
    }
    if (size !== p.bytes) throw damaged(`is ${size} bytes long where ${p.bytes} were written`);
    if ((await fileSha256(file)) !== p.sha256) throw damaged('does not match its checksum');
  }
  return manifest;
}

/** A backup's size on disk: its parts and its manifest. */
export function backupBytes(manifest: Manifest): number {
  return [...manifest.tables, ...manifest.files].reduce((sum, p) => sum + p.bytes, 0);
}

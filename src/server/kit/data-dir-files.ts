/**
 * What the server keeps in DATA_DIR beside the database: the generated app secret and DKIM key,
 * each written once, whole and readable by the server's user alone, and the folder's own mode.
 * Read by `loadConfig` (./config.ts), which stops start-up with a `ConfigError` naming what to fix.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** DATA_DIR when it is not set. */
export const DEFAULT_DATA_DIR = './data';

/** A setting or a kept file that stops start-up; its message says what to fix. */
export class ConfigError extends Error {}

/** The shortest secret accepted from DATA_DIR/.app-secret, in bytes (APP_SECRET's own minimum). */
const MIN_SECRET_BYTES = 32;
export const SECRET_FILE = '.app-secret';
/** The DKIM private key made on first use when DKIM_PRIVATE_KEY_FILE is unset (decision 044). */
export const DKIM_KEY_FILE = '.dkim-private-key.pem';

/** Whether `error` is a file system error with this code. */
const hasCode = (error: unknown, code: string) => (error as NodeJS.ErrnoException | undefined)?.code === code;

/**
 * Makes `dir` (and any missing parent) readable by its owner only: folders are created with mode
 * 0700, and an existing one that group or others may read is tightened when it is ours: owned by
 * this process's user, not a shared folder (sticky bit, as /tmp), and holding nothing but `own`
 * (the names the server keeps there). A folder that is not ours is left as it is.
 */
export function ensurePrivateDir(dir: string, own: (name: string) => boolean = () => true): void {
  const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  // Passing through (group search alone) reveals nothing: the embedded database's user needs it
  // when the server runs as root (./db/embedded-cluster.ts).
  if ((stat.mode & 0o067) === 0) return;
  const uid = process.getuid?.();
  if (uid === undefined || stat.uid !== uid) return;
  if (created === undefined) {
    if (stat.mode & 0o1000) return;
    if (!readdirSync(dir).every(own)) return;
  }
  chmodSync(dir, stat.mode & 0o700);
}

/** The names the server keeps in DATA_DIR: the secret and the DKIM key (and their temporary files), the database, the e-mails, the backups. */
export function isDataDirEntry(name: string): boolean {
  return (
    name === SECRET_FILE ||
    name.startsWith(`${SECRET_FILE}.`) ||
    name === DKIM_KEY_FILE ||
    name.startsWith(`${DKIM_KEY_FILE}.`) ||
    name === 'postgres' ||
    name === 'postgres.initdb' ||
    name === 'postgres-location.txt' ||
    name === 'pglite' ||
    name.startsWith('pglite-moved-') ||
    name === '.pglite-import' ||
    name === 'mail' ||
    name === 'backups'
  );
}

/** A kept file's text, or undefined when there is none; a file that cannot be read stops start-up. */
function readKept(file: string, refusal: (why: string) => string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return undefined;
    throw new ConfigError(refusal((error as Error).message));
  }
}

/** The secret in `file`, or undefined when there is no such file; a short secret stops start-up. */
function readSecretFile(file: string): string | undefined {
  const content = readKept(
    file,
    (why) =>
      `Cannot read the secret in ${file} (${why}). Fix it, delete it so a new one is generated, or set APP_SECRET (at least ${MIN_SECRET_BYTES} characters).`,
  );
  if (content === undefined) return undefined;
  const secret = content.trim();
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_SECRET_BYTES) {
    throw new ConfigError(
      `The secret in ${file} is ${bytes === 0 ? 'empty' : `only ${bytes} bytes long`}; at least ${MIN_SECRET_BYTES} bytes are needed, or anyone could sign e-mail links. Delete the file so a new one is generated at the next start (links already sent stop working), or set APP_SECRET (at least ${MIN_SECRET_BYTES} characters).`,
    );
  }
  return secret;
}

/**
 * Writes `content` to `file` in `dir` unless a file is there already. It is written whole to a
 * temporary file of its own (exclusive create, mode 0600, fsync) and only then put in place, so
 * no reader ever sees a part of it, by a hard link, which, unlike a rename, never replaces a file
 * already there: of processes starting together, the first one's content is kept and the others
 * read it.
 */
function writeOnce(dir: string, file: string, content: string): void {
  const temporary = join(dir, `${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if (!hasCode(error, 'EEXIST')) {
      // A file system without hard links: a rename puts the file in place instead.
      if (!existsSync(file)) renameSync(temporary, file);
    }
  } finally {
    rmSync(temporary, { force: true });
  }
  fsyncDir(dir);
}

/** With no APP_SECRET the server makes one and keeps it in DATA_DIR, so links survive restarts. */
export function loadOrCreateSecret(dataDir: string): string {
  return keptInDataDir(dataDir, SECRET_FILE, 'The secret', readSecretFile, () =>
    randomBytes(32).toString('base64url'),
  );
}

/**
 * DATA_DIR's file `name`, read and checked by `read`: the one there, or `make()`'s written once
 * (`writeOnce`) and read back (ours, or the one another process put in place first).
 */
function keptInDataDir(
  dataDir: string,
  name: string,
  what: string,
  read: (file: string) => string | undefined,
  make: () => string,
): string {
  ensurePrivateDir(dataDir, isDataDirEntry);
  const file = join(dataDir, name);
  const existing = read(file);
  if (existing !== undefined) return existing;
  writeOnce(dataDir, file, make());
  const kept = read(file);
  if (kept === undefined) throw new ConfigError(`${what} in ${file} disappeared while it was written.`);
  return kept;
}

/** The smallest RSA key accepted for DKIM (RFC 8301: signers must use at least 1024 bits). */
const MIN_DKIM_BITS = 1024;

/** The DKIM private key in `file` (PEM), checked; undefined when there is no such file. */
function readDkimKey(file: string): string | undefined {
  const pem = readKept(file, (why) => `Cannot read the DKIM key in ${file} (${why}).`);
  if (pem === undefined) return undefined;
  let bits: number | undefined;
  try {
    const key = createPrivateKey(pem);
    bits = key.asymmetricKeyType === 'rsa' ? key.asymmetricKeyDetails?.modulusLength : undefined;
  } catch {
    bits = undefined;
  }
  if (!bits || bits < MIN_DKIM_BITS) {
    throw new ConfigError(
      `The DKIM key in ${file} is not an RSA private key of at least ${MIN_DKIM_BITS} bits in PEM form. Replace it, or delete it (when it is DATA_DIR's own) so a new one is made at the next start, and publish the new key's record.`,
    );
  }
  return pem;
}

/**
 * The DKIM private key: DKIM_PRIVATE_KEY_FILE's (which must exist), or DATA_DIR's own, made on
 * first use (RSA, 2048 bits), kept like the app secret.
 */
export function loadOrCreateDkimKey(dataDir: string, configured: string | undefined): string {
  if (configured) {
    const pem = readDkimKey(resolve(configured));
    if (pem === undefined) throw new ConfigError(`DKIM_PRIVATE_KEY_FILE names no file: ${configured}.`);
    return pem;
  }
  return keptInDataDir(dataDir, DKIM_KEY_FILE, 'The DKIM key', readDkimKey, () =>
    generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  );
}

/** Makes a new entry of `dir` durable; where folders cannot be opened for it, nothing is lost but that. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot fsync a folder.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

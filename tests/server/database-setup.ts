/**
 * The server suite's databases, migrated once per run: a template database on the local
 * PostgreSQL, migrated by the server's own code (openDatabase), which every test's database then
 * copies (databases.ts: `CREATE DATABASE ... TEMPLATE`, milliseconds against a migration per app).
 * Its name, and every copy's, start with a prefix of this run (the process and the time), so two
 * runs on one machine never share one; the teardown drops them all, leftovers of a crashed file
 * included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/kit/db/client';
import { databaseUrl, onServer, TEST_DATABASE_URL, type TestDatabases } from './database-server';

/** Why the local Postgres does not answer, or undefined when it does. */
async function unavailable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Drops every database of the run whose name starts with `prefix`. */
async function dropAll(prefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ name: string }>(
      `select datname as name from pg_database where starts_with(datname, $1)`,
      [`${prefix}_`],
    );
    for (const { name } of rows) await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  const reason = await unavailable();
  if (reason) {
    // The server tests run on PostgreSQL: without it they are skipped only when asked to be.
    if (process.env.SKIP_SERVICE_TESTS === '1') {
      project.provide('testDatabases', null);
      return;
    }
    throw new Error(
      `PostgreSQL at TEST_DATABASE_URL does not answer (${reason}). Start it, or set SKIP_SERVICE_TESTS=1 to skip its tests knowingly.`,
    );
  }
  const prefix = `site_${process.pid}_${Date.now().toString(36)}`;
  const template = `${prefix}_template`;
  await onServer(`create database ${template}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'site-template-'));
  try {
    // The server's own migration step, as an app runs it at start; then no connection is left,
    // and none may come: `CREATE DATABASE ... TEMPLATE` refuses a template anyone is connected to.
    const database = await openDatabase({ databaseUrl: databaseUrl(template), dataDir });
    await database.close();
    await onServer(`alter database ${template} with allow_connections false`);
  } catch (error) {
    await dropAll(prefix);
    throw error;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  project.provide('testDatabases', { template, prefix } satisfies TestDatabases);
  return () => dropAll(prefix);
}

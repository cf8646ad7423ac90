/**
 * The outbox's second anchor (decision 029, addendum): the work every durable outbox must do for
 * an e-mail, with none of the server's code. It claims due rows sixteen at a time with the
 * worker's claim statement (a lease, `for update skip locked`), sends them in rounds of as many
 * as the pool has connections through a pooled nodemailer transport, and records each round sent
 * in one statement before the next round goes: what a crash must not lose (an e-mail accepted by
 * the relay while the one before it is unrecorded) is what this order guarantees. No limits, no
 * suppression look-up, no rendering (the message is made once), no retries, no claims ahead.
 *
 * Started by scripts/bench-outbox.mjs as a process of its own, like the server whose worker it
 * stands beside, on the same seeded database through one `pg` client: a PostgreSQL server, or the
 * embedded cluster of the run's DATA_DIR, started by this process with the server's code as the
 * server starts it (scripts/bench-database.mjs, so it runs under tsx). Given by message
 * `{ smtpUrl, databaseUrl | dataDir, connections, mail }`; answers `done` once no row is due.
 */
import nodemailer from 'nodemailer';
import pg from 'pg';
import { openBenchDatabase } from './bench-database.mjs';

/** Rows a claim takes. */
const CLAIM_SIZE = 16;

const CLAIM = `
  update outbox set attempts = attempts + 1, next_attempt_at = now() + interval '15 seconds'
  where id in (
    select id from outbox
    where status = 'pending' and next_attempt_at <= now()
    order by next_attempt_at
    limit $1
    for update skip locked
  )
  returning id::text as id, message->>'subject' as subject`;
const MARK = `
  update outbox set status = 'sent', sent_at = now(), last_attempt_at = now(), last_error = null
  where id = any($1::bigint[])`;

async function open(store) {
  const database = await openBenchDatabase(store);
  const client = new pg.Client(database.config);
  await client.connect();
  return {
    query: async (sql, params) => (await client.query(sql, params)).rows,
    close: async () => {
      await client.end();
      await database.close();
    },
  };
}

process.once('message', async ({ smtpUrl, databaseUrl, dataDir, connections, mail }) => {
  const db = await open({ databaseUrl, dataDir });
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: connections });
  for (;;) {
    const rows = await db.query(CLAIM, [CLAIM_SIZE]);
    if (rows.length === 0) break;
    for (let i = 0; i < rows.length; i += connections) {
      const round = rows.slice(i, i + connections);
      await Promise.all(
        round.map((row) =>
          transport.sendMail({ ...mail, subject: row.subject, messageId: `<anchor.${row.id}@example.com>` }),
        ),
      );
      await db.query(MARK, [round.map((row) => row.id)]);
    }
  }
  transport.close();
  await db.close();
  process.send('done', () => process.exit(0));
});

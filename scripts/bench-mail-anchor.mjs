/**
 * The outbox's anchor (decision 027): a pooled nodemailer transport sending one message over and
 * over, straight to the bench's SMTP sink, as many at once as it has connections, with none of
 * the server's code: no database, no claim, no render, no marking. Started by
 * scripts/bench-outbox.mjs as a process of its own, like the server whose worker it stands
 * beside, and given by message `{ smtpUrl, count, connections, mail }`; answers `done`.
 */
import nodemailer from 'nodemailer';

process.once('message', async ({ smtpUrl, count, connections, mail }) => {
  const transport = nodemailer.createTransport({ url: smtpUrl, pool: true, maxConnections: connections });
  let next = 0;
  // One lane a connection: each sends its next message as soon as the last was accepted.
  const lane = async () => {
    while (next < count) {
      next += 1;
      const id = `<anchor.${process.pid}.${next}@example.com>`;
      await transport.sendMail({ ...mail, messageId: id });
    }
  };
  await Promise.all(Array.from({ length: connections }, lane));
  transport.close();
  process.send('done', () => process.exit(0));
});

/**
 * The console's downloads (CSV exports, a person's data) as they are sent (decision 033): one at
 * a time per owner, since a full export holds the database and the event loop for seconds and
 * ten at once held the public site for seconds too; a second one while the first runs is
 * refused with 409 and downloadCopy.busy. A download whose stream fails after its headers went is
 * cut (the response is destroyed, so no client takes it for whole) and logged by its path, its
 * cause's code and the rows that went, never the cause's message.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { downloadCopy } from '~/content/console';
import { errorCode } from '../log-safe';
import type { GiveWay } from './give-way';
import { Refusal } from './request-checks';

/** A download's answer: the file's name, type and content, sent as an attachment. */
export type FileAnswer = { name: string; type: string; body: Readable | string };

/** The downloads running, by owner: one scope's (one console's) own. */
export class RunningDownloads {
  private readonly running = new Set<string>();

  /** `giveWay`: a download's own request is not a visitor's it should wait for (give-way.ts). */
  constructor(private readonly giveWay: Pick<GiveWay, 'excuse'>) {}

  /**
   * Makes the file with `make` and sends it, the owner's one download until it has been sent,
   * cut or abandoned; refused with 409 while another of theirs runs.
   */
  async send(
    owner: string,
    request: FastifyRequest,
    reply: FastifyReply,
    make: () => Promise<FileAnswer>,
  ): Promise<FastifyReply> {
    if (this.running.has(owner)) throw new Refusal(409, { error: downloadCopy.busy });
    this.running.add(owner);
    this.giveWay.excuse(request.raw);
    let file: FileAnswer;
    try {
      file = await make();
    } catch (error) {
      this.running.delete(owner);
      throw error;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.running.delete(owner);
    };
    // Sent, cut or left by the client: the response closes in every case.
    reply.raw.once('close', release);
    if (typeof file.body !== 'string') {
      const body = file.body;
      body.once('close', release);
      body.once('error', (error) => {
        const rows = (error as { rows?: unknown }).rows;
        request.log.warn(
          {
            path: request.url.split('?')[0],
            code: errorCode(error),
            ...(typeof rows === 'number' ? { rows } : {}),
          },
          'download cut short',
        );
      });
    }
    return reply
      .header('content-type', file.type)
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .header('x-content-type-options', 'nosniff')
      .send(file.body);
  }
}

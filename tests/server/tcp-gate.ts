/**
 * A TCP gate in front of a service (Postgres, Redis) for the outage tests: while open it passes
 * each connection through to the service; `shut()` refuses new connections (the port closed, as
 * a stopped server's is) and cuts the ones it carries; `open()` lets them through again on the
 * same port.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type TcpGate = {
  port: number;
  /** The service's URL with the gate's port in place of its own. */
  url: string;
  shut(): Promise<void>;
  open(): Promise<void>;
  close(): Promise<void>;
};

export async function tcpGate(serviceUrl: string): Promise<TcpGate> {
  const target = new URL(serviceUrl);
  const targetPort = Number(target.port);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(targetPort, target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const shut = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  const url = new URL(serviceUrl);
  url.port = String(port);
  return { port, url: url.toString(), shut, open: listen, close: shut };
}

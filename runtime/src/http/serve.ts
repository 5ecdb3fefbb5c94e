import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { answerClientError } from './client-error';

export interface ServingHttp {
  readonly server: Server;
  readonly port: number;
  /** Stops accepting, lets in-flight requests finish, and drops idle keep-alive connections. */
  close(): Promise<void>;
}

/** How often node looks for requests past their timeout: the timeout is honoured to within this. */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/** Serves the app. A request, headers and body, must arrive within `requestTimeoutMs`, so a client that
 *  announces more body than it sends (or trickles its headers) gets a 408 problem, not a connection held
 *  open; unparseable requests and oversized headers get a problem too (client-error.ts). */
export const serveHttp = (app: Express, port: number, { requestTimeoutMs }: { requestTimeoutMs: number }) =>
  new Promise<ServingHttp>((resolve, reject) => {
    const server = createServer(
      {
        requestTimeout: requestTimeoutMs,
        headersTimeout: requestTimeoutMs,
        connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      },
      app,
    );
    server.on('clientError', answerClientError);
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((closeError) => (closeError ? fail(closeError) : done()));
            server.closeIdleConnections();
          }),
      });
    });
  });

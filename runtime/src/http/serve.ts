import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface ServingHttp {
  readonly server: Server;
  readonly port: number;
  /** Stops accepting, lets in-flight requests finish, and drops idle keep-alive connections. */
  close(): Promise<void>;
}

export const serveHttp = (app: Express, port: number): Promise<ServingHttp> =>
  new Promise((resolve, reject) => {
    const server = app.listen(port, (error?: Error) => {
      if (error) return reject(error);
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

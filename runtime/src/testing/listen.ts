import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface RunningServer {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/** Serves the app on a free localhost port, so tests talk to it over real HTTP. */
export const listen = (app: Express): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', (error?: Error) => {
      if (error) return reject(error);
      const { port } = server.address() as AddressInfo;
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.closeAllConnections();
            server.close((closeError) => (closeError ? fail(closeError) : done()));
          }),
      });
    });
  });

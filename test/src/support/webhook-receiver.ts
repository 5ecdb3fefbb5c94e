import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request and answers per path from a
// script of status codes (then 200), optionally after a delay.

export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface ScriptedAnswer {
  readonly status: number;
  readonly delayMs?: number;
}

export interface WebhookReceiver {
  readonly url: (path: string) => string;
  readonly received: (path: string) => ReceivedWebhook[];
  /** The answers to give on `path`, in order; once used up, 200 at once. */
  script(path: string, answers: readonly ScriptedAnswer[]): void;
  close(): Promise<void>;
}

const flatHeaders = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));

export const startWebhookReceiver = async (): Promise<WebhookReceiver> => {
  const received: ReceivedWebhook[] = [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: flatHeaders(req.headers), body: Buffer.concat(chunks).toString('utf8') });
      const answer = scripts.get(path)?.shift() ?? { status: 200 };
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(answer.status).end();
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received: (path) => received.filter((request) => request.path === path),
    script: (path, answers) => {
      scripts.set(path, [...answers]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls until `check` returns something truthy, or fails after `timeoutMs`. */
export const eventually = async <T>(check: () => Promise<T> | T, timeoutMs = 15_000): Promise<Truthy<T>> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

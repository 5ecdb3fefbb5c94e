import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from '@cropcover/contracts';
import { inSpan, type TraceCarrier, traceCarrierOf } from '@cropcover/runtime';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { guardedLookup } from './guarded-lookup';
import { webhookSignature } from './webhook-signature';

/** A receiver that has not answered within this is counted as failed (SPEC §7). */
export const WEBHOOK_TIMEOUT_MS = 15_000;

export interface WebhookRequest {
  readonly url: string;
  /** The webhook-id header: the event id, the same on every retry so receivers can dedupe. */
  readonly eventId: string;
  readonly body: string;
  readonly secret: string;
  readonly now: Date;
  /** Aborted when the dispatcher stops: the attempt is then not counted and is made again later. */
  readonly signal: AbortSignal;
}

export interface WebhookAnswer {
  /** null when no HTTP answer came. */
  readonly statusCode: number | null;
  readonly latencyMs: number;
  /** Why no HTTP answer came, as the subscriber is told it: generic, so the delivery log does not map
   *  the service's network (which names resolve, which addresses are refused or unreachable). */
  readonly error: string | null;
  /** What really happened, for the operator's log only. */
  readonly detail: string | null;
}

export const CONNECTION_FAILED = 'could not connect to the receiver';

export type WebhookSender = (request: WebhookRequest) => Promise<WebhookAnswer>;

/** POSTs signed deliveries. Redirects are not followed (a 3xx is a failed attempt), and every connection
 *  goes through the address guard. Each send is a client span; the request carries its `traceparent`
 *  (W3C Trace Context, outside the signed content) so a traced subscriber can continue the trace. */
export const createWebhookSender = (allowInsecure: boolean): WebhookSender => {
  const post = signedPost(allowInsecure);
  return (request) => {
    const target = new URL(request.url);
    // Host and port only: a subscriber's URL may hold a token in its path or query.
    return inSpan(
      'POST',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'POST',
          'server.address': target.hostname,
          'server.port': Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
        },
      },
      async (span) => {
        const answer = await post(request, traceCarrierOf());
        if (answer.statusCode !== null) span.setAttribute('http.response.status_code', answer.statusCode);
        if (answer.statusCode === null || answer.statusCode >= 400)
          span.setStatus({ code: SpanStatusCode.ERROR, message: answer.error ?? `HTTP ${answer.statusCode}` });
        return answer;
      },
    );
  };
};

const signedPost = (allowInsecure: boolean) => {
  const lookup = guardedLookup(allowInsecure);
  // Connections are kept between deliveries to the same receiver (a burst would otherwise open one per
  // webhook); each new one still goes through the address guard.
  const agents = {
    'http:': new HttpAgent({ lookup, keepAlive: true }),
    'https:': new HttpsAgent({ lookup, keepAlive: true }),
  };
  return (
    { url, eventId, body, secret, now, signal }: WebhookRequest,
    traceHeaders: TraceCarrier,
  ): Promise<WebhookAnswer> => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // A literal IP is connected to without any lookup, so it is checked here.
    if (!allowInsecure && isIP(host) !== 0 && !isPublicAddress(host))
      return Promise.resolve({
        statusCode: null,
        latencyMs: 0,
        error: CONNECTION_FAILED,
        detail: `${host} is not a public address`,
      });
    const timestamp = Math.floor(now.getTime() / 1000);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
    return new Promise((resolve) => {
      const request = send(target, {
        method: 'POST',
        agent,
        signal: AbortSignal.any([signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'CropCover-Webhooks/1',
          'webhook-id': eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': webhookSignature(secret, eventId, timestamp, body),
          ...traceHeaders,
        },
      });
      request.once('response', (response) => {
        // The answer's body is not used; drain it so the socket is freed.
        response.resume();
        resolve({ statusCode: response.statusCode ?? null, latencyMs: elapsed(), error: null, detail: null });
      });
      request.once('error', (error: NodeJS.ErrnoException) => {
        const timedOut = error.name === 'AbortError' && !signal.aborted;
        resolve({
          statusCode: null,
          latencyMs: elapsed(),
          error: timedOut ? `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : CONNECTION_FAILED,
          detail: `${error.code ?? error.name}: ${error.message}`,
        });
      });
      request.end(body);
    });
  };
};

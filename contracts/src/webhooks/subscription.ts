import { DateTime, TrimmedText } from '../common';
import { PageNumber, PageSize } from '../insurance/pagination';
import { z } from '../zod';
import { TRIGGER_BREACHED_EVENT_TYPE } from './events';

const MAX_URL_LENGTH = 2048;

// A URL parser drops or rewrites these silently (tabs and newlines anywhere, a backslash for a slash), so
// the host called could differ from the URL shown: refused rather than repaired.
const isSilentlyRewritten = (value: string): boolean =>
  [...value].some((character) => {
    const code = character.charCodeAt(0);
    return code <= 0x20 || code === 0x7f || character === '\\';
  });

/** The receiver's URL: https — or, with `allowInsecure` (local development and tests), also http. Whether
 *  its host is public is a rule of the route (422 `webhook_url_not_public`), not of the shape. Stored as the WHATWG URL parser writes it, which
 *  is the URL the dispatcher calls. */
export const webhookUrl = (allowInsecure: boolean) =>
  z
    .string()
    .max(MAX_URL_LENGTH, { message: `must be at most ${MAX_URL_LENGTH} characters` })
    .refine((value) => !isSilentlyRewritten(value), {
      message: 'must not contain spaces, control characters or backslashes',
      abort: true,
    })
    .refine((value) => URL.canParse(value), { message: 'must be an absolute URL', abort: true })
    .refine((value) => new URL(value).port !== '0', { message: 'must not use port 0', abort: true })
    .refine(
      (value) => {
        const { protocol } = new URL(value);
        return protocol === 'https:' || (allowInsecure && protocol === 'http:');
      },
      { message: allowInsecure ? 'must be an http or https URL' : 'must be an https URL', abort: true },
    )
    .refine((value) => !new URL(value).username && !new URL(value).password, {
      message: 'must not carry credentials',
      abort: true,
    })
    .transform((value) => new URL(value).href)
    .openapi({ example: 'https://hooks.example.com/cropcover' });

export const webhookCreateRequest = (allowInsecure: boolean) =>
  z.strictObject({ url: webhookUrl(allowInsecure), description: TrimmedText(500).optional() });

/** Endpoint 6's body as production accepts it. */
export const WebhookCreateRequest = webhookCreateRequest(false).openapi('WebhookCreateRequest');
export type WebhookCreateRequest = z.infer<typeof WebhookCreateRequest>;

export const WebhookSubscription = z
  .object({
    webhook_id: z.string(),
    organization_id: z.string(),
    event_type: z.literal(TRIGGER_BREACHED_EVENT_TYPE),
    url: z.string(),
    description: z.string().nullable(),
    is_active: z.boolean(),
    created_at: DateTime,
  })
  .openapi('WebhookSubscription');
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

/** The creation response: the only place the signing secret is ever shown. */
export const CreatedWebhookSubscription = WebhookSubscription.extend({
  raw_secret: z.string().openapi({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
}).openapi('CreatedWebhookSubscription');
export type CreatedWebhookSubscription = z.infer<typeof CreatedWebhookSubscription>;

export const WebhookPathParams = z.strictObject({ webhook_id: z.string().min(1).max(100) });

export const WebhookListQuery = z.strictObject({ page: PageNumber, page_size: PageSize });
export type WebhookListQuery = z.infer<typeof WebhookListQuery>;

export const WebhookList = z
  .object({
    items: z.array(WebhookSubscription),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('WebhookList');
export type WebhookList = z.infer<typeof WebhookList>;

/** What a route answers for a subscription of another organization, as for one that does not exist. */
export const UNKNOWN_WEBHOOK = {
  description: 'No such webhook subscription in your organization',
  codes: ['not_found'],
} as const;

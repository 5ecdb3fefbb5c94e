import { actorOf } from '@cropcover/application';
import {
  type DeliveryAttempt,
  DeliveryStatus,
  UNKNOWN_WEBHOOK,
  WebhookDeliveriesQuery,
  type WebhookDelivery,
  WebhookDeliveryList,
  WebhookPathParams,
} from '@cropcover/contracts';
import { queryRoute } from '../../../../query-route';
import { isoTimestamp } from '../../../../timestamps';
import { readVisibleWebhook, WEBHOOK_READERS } from '../../visible-webhook';

/** What was sent to the subscription, newest first, each
 *  with every attempt (status code, latency, error) and when the next one is due. */
export const listWebhookDeliveries = queryRoute('GET /insurance/webhooks/{webhook_id}/deliveries', {
  summary: 'Deliveries to a subscription, newest first, with every attempt',
  roles: WEBHOOK_READERS,
  request: { params: WebhookPathParams, query: WebhookDeliveriesQuery },
  success: { status: 200, schema: WebhookDeliveryList, description: 'A page of deliveries' },
  problems: { 404: UNKNOWN_WEBHOOK },
}).handle(async ({ deps, params: { webhook_id }, query: { page, page_size }, principal }) => {
  await readVisibleWebhook(deps.db, webhook_id, actorOf(principal));
  const scope = deps.db.selectFrom('webhook_deliveries').where('webhook_id', '=', webhook_id);
  const [rows, { total }] = await Promise.all([
    scope
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('event_id')
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    scope.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const attempts =
    rows.length === 0
      ? []
      : await deps.db
          .selectFrom('webhook_delivery_attempts')
          .selectAll()
          .where('webhook_id', '=', webhook_id)
          .where(
            'event_id',
            'in',
            rows.map((row) => row.event_id),
          )
          .orderBy('attempt')
          .execute();
  const items = rows.map(
    (row): WebhookDelivery => ({
      event_id: row.event_id,
      event_type: 'trigger.breached',
      policy_id: row.policy_id,
      status: DeliveryStatus.parse(row.status),
      attempt_count: row.attempt_count,
      next_attempt_at: row.next_attempt_at && isoTimestamp(row.next_attempt_at),
      created_at: isoTimestamp(row.created_at),
      attempts: attempts
        .filter((attempt) => attempt.event_id === row.event_id)
        .map(
          (attempt): DeliveryAttempt => ({
            attempt: attempt.attempt,
            attempted_at: isoTimestamp(attempt.attempted_at),
            status_code: attempt.status_code,
            latency_ms: attempt.latency_ms,
            error: attempt.error,
          }),
        ),
    }),
  );
  return { webhook_id, items, total: Number(total), page, page_size };
});

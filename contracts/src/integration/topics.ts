// The Kafka topics CropCover publishes to (SPEC §7). The `.v1` suffix is the message schema's major
// version: an incompatible change goes to a new topic, so existing consumers keep working.

export const INTEGRATION_TOPICS = {
  /** Every event of every policy; key = policy_id. */
  policyEvents: 'cropcover.policy-events.v1',
  /** Every farm and farmer event; key = farm_id or farmer_id. */
  registryEvents: 'cropcover.registry-events.v1',
  /** TriggerBreached events only (also on the policy topic); key = policy_id. */
  triggerBreaches: 'cropcover.trigger-breaches.v1',
  /** Every event of every programme and its reinsurance (treaties, cessions); key = programme_id. */
  programmeEvents: 'cropcover.programme-events.v1',
  /** Each signed checkpoint of the audit log, for distribution only (the checkpoint sink is the anchor);
   *  key = the checkpoint origin. */
  auditCheckpoints: 'cropcover.audit-checkpoints.v1',
} as const;

export type IntegrationTopicNames = { readonly [Topic in keyof typeof INTEGRATION_TOPICS]: string };

/** The topics of a deployment that shares its broker with others (KAFKA_TOPIC_PREFIX). */
export const prefixedTopics = (prefix: string): IntegrationTopicNames => ({
  policyEvents: `${prefix}${INTEGRATION_TOPICS.policyEvents}`,
  registryEvents: `${prefix}${INTEGRATION_TOPICS.registryEvents}`,
  triggerBreaches: `${prefix}${INTEGRATION_TOPICS.triggerBreaches}`,
  programmeEvents: `${prefix}${INTEGRATION_TOPICS.programmeEvents}`,
  auditCheckpoints: `${prefix}${INTEGRATION_TOPICS.auditCheckpoints}`,
});

import { PolicyEvent } from './insurance/events';
import { IndexSourceEvent } from './insurance/index-sources';
import { ProductEvent } from './insurance/products';
import { UnitAreaEvent } from './insurance/unit-areas';
import { ProgrammeEvent } from './programmes/events';
import { FarmEvent, FarmerEvent, ShareableIdEvent } from './registry/events';
import { ReinsuranceEvent } from './reinsurance/events';
import { WebhookSubscriptionEvent } from './webhooks/events';
import { z } from './zod';

/** Every event the log holds, whatever its stream: what an event read back must be to be used. */
export const LogEvent = z.discriminatedUnion('type', [
  PolicyEvent,
  FarmEvent,
  FarmerEvent,
  ShareableIdEvent,
  WebhookSubscriptionEvent,
  IndexSourceEvent,
  UnitAreaEvent,
  ProductEvent,
  ProgrammeEvent,
  ReinsuranceEvent,
]);
export type LogEvent = z.infer<typeof LogEvent>;

// The contracts' public face: what the other packages use, by concept. A name another package needs is
// added here, to its concept's group.

// Shapes every part of the API shares, and currencies
export { NoBody } from './common';
export { isIsoCurrency, minorUnitExponent } from './currency';
// The HTTP API: problem codes and route declarations
export {
  type DeclaredCodeOf,
  type HttpMethod,
  mayAnswer,
  type Operation,
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  type ProblemCode,
  type RouteContract,
  type RouteDeclaration,
  type RouteRequest,
} from './http-api';
// Insurance and index data: perils and trigger terms, quotes and policies, evaluations and payouts, the
// policy's events and their audit, index sources and their readings
export {
  AuditEvent,
  amountFitsCurrency,
  BreachDeclarable,
  Comparison,
  DataCoverage,
  DataSourceChoice,
  DEFAULT_STATION_RADIUS_KM,
  EvaluateRequest,
  EvaluationHistory,
  EvaluationHistoryQuery,
  EvaluationResult,
  INDEX_SOURCE_RULES,
  IndexReading,
  IndexReadingList,
  IndexReadingsQuery,
  IndexReadingsRequest,
  IndexReadingsResponse,
  IndexSource,
  IndexSourceEvent,
  IndexSourceKind,
  IndexSourceList,
  IndexSourcePathParams,
  IndexSourceRegistered,
  IndexSourceRegisterRequest,
  IndexSourcesQuery,
  LapseRequest,
  Payout,
  PayoutOverpayment,
  PayoutPathParams,
  Peril,
  PerilDataSource,
  Policy,
  PolicyDataSources,
  PolicyEnvironment,
  PolicyEvent,
  PolicyEventPage,
  PolicyEventsQuery,
  PolicyIssued,
  PolicyIssueRequest,
  PolicyList,
  PolicyListItem,
  PolicyListQuery,
  PolicyPathParams,
  PolicyStatus,
  PolicyTriggerCourses,
  PricingMethod,
  Quote,
  QuoteRequest,
  READING_BOUNDS,
  ReadingIndex,
  ReadingsProvenance,
  SkipReason,
  SkipReasons,
  Station,
  TriggerAggregation,
  TriggerBreached,
  TriggerCourse,
  TriggerCourseDay,
  TriggerEvaluated,
  TriggerEvaluationHistoryItem,
  TriggerIndex,
  TriggerStatus,
  TriggerTerms,
  UNKNOWN_POLICY,
} from './insurance';

// What leaves the log for Kafka: the topics and their messages (AsyncAPI)
export {
  buildAsyncApiDocument,
  INTEGRATION_TOPICS,
  IntegrationMessageHeaders,
  type IntegrationTopicNames,
  PolicyEventMessage,
  ProgrammeEventMessage,
  ProgrammeStreamKind,
  prefixedTopics,
  RegistryAggregateType,
  RegistryEventMessage,
  TriggerBreachMessage,
} from './integration';

// Every event as the log stores it
export { LogEvent } from './log-event';

// The OpenAPI document, built from the route declarations
export { buildOpenApiDocument, type OpenApiDocument } from './openapi';

// Programmes: capacity per zone, exposure and the as-if history of the book
export {
  CapacityBelowCommittedEntry,
  CapacityExceededEntry,
  CapacityLimitKind,
  CapacityPatch,
  CapacityRules,
  CapacityRulesMinor,
  ExposureGrouping,
  ExposureReleaseReason,
  ExposureSort,
  ExposureZone,
  LossStatistics,
  PortfolioBacktestResult,
  ProgrammeCreateRequest,
  ProgrammeEvent,
  ProgrammeUpdated,
  ProgrammeUpdateRequest,
  programmeUpdateAmounts,
  ReturnPeriodLoss,
} from './programmes';
// Farm registry: farmers, farms and fields — requests, responses, events
export {
  FARM_ETAG_HEADER,
  Farm,
  FarmAttributes,
  FarmCreateRequest,
  FarmDeactivated,
  FarmEvent,
  FarmerCreateRequest,
  FarmerEvent,
  FarmerLookupResult,
  FarmerProfile,
  type FarmerProfileFields,
  FarmerProfileUpdated,
  FarmerRegistered,
  FarmerUpdateRequest,
  FarmIfMatchHeader,
  FarmLinkedOrganization,
  FarmLinkedToOrganization,
  FarmPathParams,
  FarmReadQuery,
  FarmRegistered,
  FarmUpdated,
  FarmUpdateRequest,
  FIELD_ID_PATTERN,
  Field,
  FieldList,
  FieldRegistered,
  FieldRegisterRequest,
  farmEtag,
  PlatformFarmerIdParams,
  ShareableIdClaimed,
  updatedAtOfFarmEtag,
} from './registry';
// Reinsurance: treaties, the cession ledger and results per period
export {
  LedgerPeriod,
  ProgrammeResults,
  ReinsuranceEvent,
  TreatyBindRequest,
  TreatyTerms,
  TreatyType,
} from './reinsurance';

// Webhooks: subscriptions and what is delivered to them
export {
  CreatedWebhookSubscription,
  DeliveryAttempt,
  DeliveryStatus,
  isPublicAddress,
  TRIGGER_BREACHED_EVENT_TYPE,
  TriggerBreachedDelivery,
  UNKNOWN_WEBHOOK,
  WEBHOOK_DELIVERY_RULES,
  WebhookCreateRequest,
  WebhookDeactivationReason,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  WebhookListQuery,
  WebhookPathParams,
  WebhookSubscription,
  WebhookSubscriptionEvent,
  webhookCreateRequest,
} from './webhooks';

// zod, extended with `.openapi()`: every schema is written with it
export { z } from './zod';

import {
  AuditCheckpoint,
  AuditKeyList,
  AuditLeafRange,
  AuditLeavesQuery,
  CheckpointPathParams,
  ConsistencyProof,
  ConsistencyProofQuery,
  InclusionProof,
  InclusionProofQuery,
} from '../audit/audit-log';
import { IndexSourceAreaOfInterest, IndexSourceUpdateRequest } from '../insurance/area-of-interest';
import { PolicyEventPage, PolicyEventsQuery } from '../insurance/audit';
import {
  Climatology,
  ClimatologyJob,
  ClimatologyJobPathParams,
  ClimatologyPathParams,
  ClimatologyQuery,
  ClimatologyRequest,
  ClimatologyVersionPathParams,
} from '../insurance/climatologies';
import {
  EvaluateRequest,
  EvaluationHistory,
  EvaluationHistoryQuery,
  EvaluationResult,
  Payout,
  PayoutPathParams,
} from '../insurance/evaluation';
import { IndexFileIngestion, IndexFilePathParams, IndexFileQuery } from '../insurance/index-files';
import {
  IndexReadingList,
  IndexReadingsQuery,
  IndexReadingsRequest,
  IndexReadingsResponse,
} from '../insurance/index-readings';
import {
  IndexSource,
  IndexSourceList,
  IndexSourcePathParams,
  IndexSourceRegisterRequest,
  IndexSourcesQuery,
} from '../insurance/index-sources';
import { PayoutCurve, PayoutCurveRequest } from '../insurance/payout-curve';
import {
  LapseRequest,
  Policy,
  PolicyIssueRequest,
  PolicyList,
  PolicyListQuery,
  PolicyPathParams,
} from '../insurance/policy';
import {
  ProductBacktestJob,
  ProductBacktestPathParams,
  ProductBacktestQuery,
  ProductBacktestRequest,
} from '../insurance/product-backtests';
import {
  Product,
  ProductIfMatchHeader,
  ProductList,
  ProductPathParams,
  ProductRegisterQuery,
  ProductRegisterRequest,
  ProductSheetRequest,
  ProductSheetValidation,
  ProductsQuery,
  ProductVersion,
  ProductVersionPathParams,
  ProductVersionQuery,
} from '../insurance/products';
import { Quote, QuoteRequest } from '../insurance/quote';
import { PolicyTriggerCourses } from '../insurance/trigger-course';
import { UnitAreaList, UnitAreasQuery, UnitAreasRegistration, UnitAreasRequest } from '../insurance/unit-areas';
import { ExposureQuery, ProgrammeExposure } from '../programmes/exposure';
import {
  BacktestJobPathParams,
  PortfolioBacktestJob,
  PortfolioBacktestRequest,
} from '../programmes/portfolio-backtest';
import {
  Programme,
  ProgrammeCreateRequest,
  ProgrammeList,
  ProgrammeListQuery,
  ProgrammePathParams,
  ProgrammeUpdateRequest,
} from '../programmes/programme';
import {
  Farm,
  FarmCreateRequest,
  FarmerLookupResult,
  FarmPathParams,
  FarmReadQuery,
  FarmUpdateRequest,
} from '../registry/farm';
import { FarmAccessGrant, FarmAccessGrantRequest, FarmAccessList, FarmAccessPathParams } from '../registry/farm-access';
import { FarmIfMatchHeader } from '../registry/farm-etag';
import { FarmerCreateRequest, FarmerProfile, FarmerUpdateRequest, PlatformFarmerIdParams } from '../registry/farmer';
import { Field, FieldList, FieldRegisterRequest } from '../registry/field';
import { FarmerClaimRequest, FarmerRegistration, FarmerRegistrationRequest } from '../registry/registration';
import { CessionLedger, CessionLedgerQuery, ProgrammeResults, ProgrammeResultsQuery } from '../reinsurance/results';
import { Treaty, TreatyBindRequest, TreatyList } from '../reinsurance/treaty';
import { WebhookDeliveriesQuery, WebhookDeliveryList } from '../webhooks/delivery';
import {
  CreatedWebhookSubscription,
  WebhookCreateRequest,
  WebhookList,
  WebhookListQuery,
  WebhookPathParams,
  WebhookSubscription,
} from '../webhooks/subscription';
import type { z } from '../zod';
import type { Operation } from './route-contract';

// Every operation of the API with the very schemas its route declares (service/src/http-api/
// api-operations.test.ts holds them identical to the route lists): a client is typed from this map by
// operation, as Hono's RPC client is from its routes, without importing anything of the server. The
// console imports it as a type only, so none of these schemas is bundled.

/** The schemas of one operation's request parts and success body; a part it does not declare is absent,
 *  and so is the body of a 204. */
interface OperationSchemas {
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly headers?: z.ZodType;
  readonly body?: z.ZodType;
  /** False when the body may be left out (its schema accepts `{}`). */
  readonly bodyRequired?: false;
  readonly success?: z.ZodType;
}

export const apiOperations = {
  'GET /farms/farmers/me': { success: FarmerProfile },
  'GET /farms/farmers/{platform_farmer_id}': { params: PlatformFarmerIdParams, success: FarmerLookupResult },
  'GET /farms/{farm_id}': { params: FarmPathParams, query: FarmReadQuery, success: Farm },
  'GET /farms/{farm_id}/fields': { params: FarmPathParams, success: FieldList },
  'GET /farms/{farm_id}/access': { params: FarmPathParams, success: FarmAccessList },
  'GET /insurance/policies': { query: PolicyListQuery, success: PolicyList },
  'GET /insurance/policies/{policy_id}': { params: PolicyPathParams, success: Policy },
  'GET /insurance/policies/{policy_id}/evaluations': {
    params: PolicyPathParams,
    query: EvaluationHistoryQuery,
    success: EvaluationHistory,
  },
  'GET /insurance/policies/{policy_id}/events': {
    params: PolicyPathParams,
    query: PolicyEventsQuery,
    success: PolicyEventPage,
  },
  'GET /insurance/policies/{policy_id}/trigger-courses': { params: PolicyPathParams, success: PolicyTriggerCourses },
  'GET /insurance/index-readings': { query: IndexReadingsQuery, success: IndexReadingList },
  'GET /insurance/products': { query: ProductsQuery, success: ProductList },
  'GET /insurance/products/backtests/{job_id}': {
    params: ProductBacktestPathParams,
    query: ProductBacktestQuery,
    success: ProductBacktestJob,
  },
  'GET /insurance/products/{product_id}': { params: ProductPathParams, success: Product },
  'GET /insurance/products/{product_id}/versions/{version}': {
    params: ProductVersionPathParams,
    query: ProductVersionQuery,
    success: ProductVersion,
  },
  'GET /insurance/index-sources': { query: IndexSourcesQuery, success: IndexSourceList },
  'GET /insurance/index-sources/{source_id}': { params: IndexSourcePathParams, success: IndexSource },
  'GET /insurance/index-sources/{source_id}/units': {
    params: IndexSourcePathParams,
    query: UnitAreasQuery,
    success: UnitAreaList,
  },
  'GET /insurance/index-sources/{source_id}/files/{ingestion_id}': {
    params: IndexFilePathParams,
    success: IndexFileIngestion,
  },
  'GET /insurance/index-sources/{source_id}/climatologies/{name}': {
    params: ClimatologyPathParams,
    query: ClimatologyQuery,
    success: Climatology,
  },
  'GET /insurance/index-sources/{source_id}/climatologies/{name}/versions/{version}': {
    params: ClimatologyVersionPathParams,
    query: ClimatologyQuery,
    success: Climatology,
  },
  'GET /insurance/index-sources/{source_id}/climatologies/{name}/jobs/{job_id}': {
    params: ClimatologyJobPathParams,
    success: ClimatologyJob,
  },
  'GET /insurance/webhooks': { query: WebhookListQuery, success: WebhookList },
  'GET /insurance/webhooks/{webhook_id}': { params: WebhookPathParams, success: WebhookSubscription },
  'GET /insurance/webhooks/{webhook_id}/deliveries': {
    params: WebhookPathParams,
    query: WebhookDeliveriesQuery,
    success: WebhookDeliveryList,
  },
  'GET /insurance/programmes': { query: ProgrammeListQuery, success: ProgrammeList },
  'GET /insurance/programmes/{programme_id}': { params: ProgrammePathParams, success: Programme },
  'GET /insurance/programmes/{programme_id}/exposure': {
    params: ProgrammePathParams,
    query: ExposureQuery,
    success: ProgrammeExposure,
  },
  'GET /insurance/programmes/{programme_id}/treaties': { params: ProgrammePathParams, success: TreatyList },
  'GET /insurance/programmes/{programme_id}/results': {
    params: ProgrammePathParams,
    query: ProgrammeResultsQuery,
    success: ProgrammeResults,
  },
  'GET /insurance/programmes/{programme_id}/cessions': {
    params: ProgrammePathParams,
    query: CessionLedgerQuery,
    success: CessionLedger,
  },
  'GET /insurance/programmes/{programme_id}/backtests/{job_id}': {
    params: BacktestJobPathParams,
    success: PortfolioBacktestJob,
  },
  'GET /audit/keys': { success: AuditKeyList },
  'GET /audit/checkpoints/latest': { success: AuditCheckpoint },
  'GET /audit/checkpoints/{size}': { params: CheckpointPathParams, success: AuditCheckpoint },
  'GET /audit/proofs/inclusion': { query: InclusionProofQuery, success: InclusionProof },
  'GET /audit/proofs/consistency': { query: ConsistencyProofQuery, success: ConsistencyProof },
  'GET /audit/leaves': { query: AuditLeavesQuery, success: AuditLeafRange },
  'POST /farms/farmers': { body: FarmerCreateRequest, success: FarmerProfile },
  'PUT /farms/farmers/me': { body: FarmerUpdateRequest, success: FarmerProfile },
  'POST /farms/registrations': { body: FarmerRegistrationRequest, success: FarmerRegistration },
  'POST /farms/farmers/claim': { body: FarmerClaimRequest, success: FarmerProfile },
  'POST /farms/farmers/me/erase': { success: FarmerProfile },
  'POST /farms/farmers/{platform_farmer_id}/erase': { params: PlatformFarmerIdParams, success: FarmerProfile },
  'POST /farms/create': { body: FarmCreateRequest, success: Farm },
  'PUT /farms/{farm_id}': {
    params: FarmPathParams,
    headers: FarmIfMatchHeader,
    body: FarmUpdateRequest,
    success: Farm,
  },
  'DELETE /farms/{farm_id}': { params: FarmPathParams },
  'POST /farms/{farm_id}/access': { params: FarmPathParams, body: FarmAccessGrantRequest, success: FarmAccessGrant },
  'DELETE /farms/{farm_id}/access/{organization_id}': { params: FarmAccessPathParams },
  'POST /farms/{farm_id}/fields': { params: FarmPathParams, body: FieldRegisterRequest, success: Field },
  'POST /insurance/quote': { body: QuoteRequest, success: Quote },
  'POST /insurance/policies': { body: PolicyIssueRequest, success: Policy },
  'POST /insurance/policies/{policy_id}/evaluate': {
    params: PolicyPathParams,
    body: EvaluateRequest,
    success: EvaluationResult,
    bodyRequired: false,
  },
  'POST /insurance/policies/{policy_id}/lapse': { params: PolicyPathParams, body: LapseRequest, success: Policy },
  'POST /insurance/payouts/{payout_id}/settle': { params: PayoutPathParams, success: Payout },
  'POST /insurance/index-readings': { body: IndexReadingsRequest, success: IndexReadingsResponse },
  'POST /insurance/products': { query: ProductRegisterQuery, body: ProductRegisterRequest, success: ProductVersion },
  'POST /insurance/products/validate': { body: ProductSheetRequest, success: ProductSheetValidation },
  'POST /insurance/products/payout-curve': { body: PayoutCurveRequest, success: PayoutCurve },
  'POST /insurance/products/backtest': { body: ProductBacktestRequest, success: ProductBacktestJob },
  'POST /insurance/products/{product_id}/versions': {
    params: ProductPathParams,
    headers: ProductIfMatchHeader,
    body: ProductSheetRequest,
    success: ProductVersion,
  },
  'POST /insurance/products/{product_id}/versions/{version}/retire': {
    params: ProductVersionPathParams,
    success: ProductVersion,
  },
  'POST /insurance/index-sources': { body: IndexSourceRegisterRequest, success: IndexSource },
  'POST /insurance/index-sources/{source_id}/files': {
    params: IndexSourcePathParams,
    query: IndexFileQuery,
    success: IndexFileIngestion,
  },
  'PATCH /insurance/index-sources/{source_id}': {
    params: IndexSourcePathParams,
    body: IndexSourceUpdateRequest,
    success: IndexSourceAreaOfInterest,
  },
  'POST /insurance/index-sources/{source_id}/units': {
    params: IndexSourcePathParams,
    body: UnitAreasRequest,
    success: UnitAreasRegistration,
  },
  'POST /insurance/index-sources/{source_id}/climatologies': {
    params: IndexSourcePathParams,
    body: ClimatologyRequest,
    success: ClimatologyJob,
  },
  'POST /insurance/programmes': { body: ProgrammeCreateRequest, success: Programme },
  'PATCH /insurance/programmes/{programme_id}': {
    params: ProgrammePathParams,
    body: ProgrammeUpdateRequest,
    success: Programme,
  },
  'POST /insurance/programmes/{programme_id}/treaties': {
    params: ProgrammePathParams,
    body: TreatyBindRequest,
    success: Treaty,
  },
  'POST /insurance/programmes/{programme_id}/backtests': {
    params: ProgrammePathParams,
    body: PortfolioBacktestRequest,
    success: PortfolioBacktestJob,
    bodyRequired: false,
  },
  'POST /insurance/webhooks/trigger-events': { body: WebhookCreateRequest, success: CreatedWebhookSubscription },
  'DELETE /insurance/webhooks/{webhook_id}': { params: WebhookPathParams },
} as const satisfies Record<Operation, OperationSchemas>;

/** An operation of the API as a request line names it: `GET /insurance/policies/{policy_id}`. */
export type ApiOperation = keyof typeof apiOperations;

type SchemasOf<O extends ApiOperation> = (typeof apiOperations)[O];

/** A query or path value as sent: the string the schema reads, or the number or flag it reads it as. */
type SentValues<S extends z.ZodType> = {
  [K in keyof z.input<S>]:
    | z.input<S>[K]
    | (K extends keyof z.output<S> ? Extract<z.output<S>[K], number | boolean> : never);
};

/** A part the caller may leave out when every field of it may be left out. */
type PartOf<Name extends string, Value> =
  Record<never, never> extends Value ? { readonly [N in Name]?: Value } : { readonly [N in Name]: Value };

/** A part the route does not declare cannot be sent. */
type Undeclared<Name extends string> = { readonly [N in Name]?: never };

type Params<S> = S extends { readonly params: infer P extends z.ZodType }
  ? PartOf<'params', SentValues<P>>
  : Undeclared<'params'>;
type Query<S> = S extends { readonly query: infer Q extends z.ZodType }
  ? PartOf<'query', SentValues<Q>>
  : Undeclared<'query'>;
type Headers<S> = S extends { readonly headers: infer H extends z.ZodType }
  ? PartOf<'headers', z.input<H>>
  : Undeclared<'headers'>;
type Body<S> = S extends { readonly body: infer B extends z.ZodType }
  ? S extends { readonly bodyRequired: false }
    ? { readonly body?: z.input<B> }
    : { readonly body: z.input<B> }
  : Undeclared<'body'>;

/** What a caller sends to an operation: its path parameters, query, headers and JSON body, each as its
 *  route declares it (and only those it declares). */
export type ApiRequest<O extends ApiOperation> = Params<SchemasOf<O>> &
  Query<SchemasOf<O>> &
  Headers<SchemasOf<O>> &
  Body<SchemasOf<O>>;

/** What an operation answers on success: its declared schema's output, as the handler returns it;
 *  `undefined` for a 204. */
export type ApiAnswer<O extends ApiOperation> =
  SchemasOf<O> extends { readonly success: infer S extends z.ZodType } ? z.output<S> : undefined;

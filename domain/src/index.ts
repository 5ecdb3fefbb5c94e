// The domain's public face: what the other packages use, by concept. Everything else in the domain is
// its own business; a name another package needs is added here, to its concept's group.

// Who acts, and the one refusal type every decider throws (mapped to problem details by the command API)
export { type Actor, type ActorInRoles, canActForOrganization, holdsRole } from './actor';
export type { Aggregate } from './aggregate';
export { DomainError } from './domain-error';

// Farmers: the profile aggregate, its deciders, who may see it
export {
  canSeeFarmer,
  claimableProfile,
  claimFarmerProfile,
  type EnrolledProfile,
  ERASED_PROFILE,
  enrolFarmer,
  eraseFarmer,
  type Farmer,
  farmerAggregate,
  farmerIdForEnrolment,
  farmerIdForSubject,
  farmerStream,
  farmIdForEnrolment,
  fieldIdForEnrolment,
  linkFarmerLogin,
  type RegisteredFarmer,
  registerFarmer,
  updateFarmerProfile,
} from './farmers';

// Farms: the farm aggregate with its fields, its deciders, who may see it
export {
  canManageFarm,
  canSeeFarm,
  claimFarm,
  deactivateFarm,
  type EnrolledField,
  enrolFarm,
  evolveFarm,
  type Farm,
  type FarmField,
  type FarmGrant,
  farmAggregate,
  farmStream,
  grantFarmAccess,
  initialFarm,
  insurableFarm,
  type RecordedConsent,
  type RegisteredFarm,
  registerFarm,
  registerField,
  revokeFarmAccess,
  updateFarm,
  visibleOrganizations,
} from './farms';

// Index sources: stations, grids and fields, who writes their readings, where a field reads them
export {
  type CadencePeriod,
  canWriteReadings,
  cellsReadBy,
  fieldLocation,
  type GridCellIndex,
  gridCellAt,
  gridCellCentresWithin,
  gridCellIndexOf,
  type IndexSourceState,
  indexSourceAggregate,
  indexSourceStream,
  keptValue,
  periodOf,
  type ReadingBounds,
  type RegisteredIndexSource,
  readingBoundsOf,
  readingLocation,
  registerIndexSource,
  type SampledCells,
  sampledCellsOf,
  sampledSeries,
  startsPeriod,
  withinBounds,
} from './index-sources';
export {
  type ClimatologyContent,
  type ClimatologyDefinition,
  type ClimatologyVersion,
  climatologyDigest,
  climatologyNormalsFor,
  defaultMinYears,
  type LocationSeries,
  locationNormals,
} from './index-sources/climatologies';
// Index data as datasets (INDEX-DATA.md): unit areas (the cells a unit reads, the unit a field lies in,
// the unit mean), climatologies
export {
  cellsOfUnit,
  fieldUnitLocation,
  NO_UNIT_AREAS,
  readingLocationWithUnits,
  registerUnitAreas,
  type UnitArea,
  type UnitAreas,
  type UnitOutline,
  unitAreasAggregate,
  unitAreasStream,
  unitContaining,
  unitMean,
  unitOutline,
} from './index-sources/unit-areas';

// Insurance: calendar dates and money, the data a cover reads and its readings, term sheets (the engine,
// the built-in product, validation, digests), pricing and quotes
export {
  addDays,
  type CoverRates,
  canonicalJson,
  checkClimatologyBlocks,
  coverClimatology,
  DEFAULT_PRODUCT,
  DEFAULT_SHEET,
  dateOfDay,
  dayNumber,
  type IndexObservation,
  type IndexSourceDefaults,
  MAX_BACKDATING_DAYS,
  namedSources,
  organizationFieldSourceId,
  originDigest,
  ownFieldDataSources,
  type ProductTerms,
  productCover,
  quoteCover,
  type RateCover,
  type ReadingFile,
  type ReadingHistory,
  type ReadingHistoryQuery,
  type ReadReadingHistory,
  rateCover,
  rationalOfDecimal,
  readingsDigest,
  readingsFilesOf,
  readingsUsedOf,
  resolveDataSources,
  severityFraction,
  sheetDigest,
  shiftYearsBack,
  type TermSheetError,
  toMajorUnits,
  utcDate,
  validateTermSheet,
} from './insurance';

// The platform's version, recorded on every policy and in the API documents
export { PLATFORM_VERSION } from './platform-version';

// Policies: the aggregate and its deciders (issue, evaluate, backtest, lapse, settle, close), when the
// monitor looks again, who may see one, how it is shown, and its snapshot (the monitor's cache of it)
export {
  asLastCheckedOn,
  backtestPolicy,
  backtestTerm,
  canSeePolicy,
  closePolicy,
  DEFAULT_SETTLEMENT_PERIOD_DAYS,
  evaluatePolicy,
  evaluationEvents,
  evaluationKind,
  evaluationResult,
  evolvePolicy,
  type IssuedPolicy,
  initialPolicy,
  isClosingDue,
  issuePolicy,
  lapsePolicy,
  liveTriggerStatus,
  liveTriggerWindow,
  type MonitoredPeril,
  monitoredPerilsOf,
  nextMonitoringDate,
  type PerilAssessor,
  POLICY_STATE_VERSION,
  type Policy,
  phasesForClients,
  policyAggregate,
  policyDataSources,
  policyFromSnapshot,
  policyListItem,
  policySnapshotOf,
  policyStream,
  policyView,
  refuseUnevaluablePolicy,
  repeatsLatestConclusion,
  settlePayout,
  sharedPerilAssessor,
  triggerCourses,
  visibleIssuedPolicy,
} from './policies';
// Portfolio: the as-if backtest of a programme's book and its loss statistics
export {
  AsIfBook,
  asIfPolicyOf,
  backtestJobView,
  evaluateSeasonCover,
  portfolioBacktestResult,
  type SheetCoverTerms,
} from './portfolio';
// Products: an organization's versioned term sheets (quote and issue name a version; a policy freezes its
// sheet)
export {
  backtestLocation,
  backtestReadingRange,
  basisRisk,
  DEFAULT_PRODUCT_VERSION,
  evolveProduct,
  initialProduct,
  type LocationBacktestResult,
  type LocationBacktestSpec,
  locationNotBacktested,
  type PayoutAndLoss,
  type Product,
  type ProductBacktestPlan,
  payoutCurve,
  planProductBacktest,
  productAggregate,
  productStream,
  productStreamId,
  productToBacktest,
  productToSell,
  productVersionView,
  refuseInvalidSheet,
  registerProduct,
  registerProductVersion,
  retireProductVersion,
  versionToSell,
} from './products';
// Programmes: capacity per zone and in aggregate, the binding check, reserve and release
export {
  canSeeProgramme,
  createProgramme,
  defaultProgrammeCurrency,
  defaultProgrammeId,
  evolveProgramme,
  exposureOfPolicy,
  initialProgramme,
  type Programme,
  programmeAggregate,
  programmeStream,
  programmeView,
  releaseExposure,
  reserveExposure,
  updateProgramme,
} from './programmes';

// Reinsurance: treaties bound to a programme, the cession ledger, results per period
export {
  bindTreaty,
  canSeeTreaty,
  evolveReinsuranceLedger,
  initialReinsuranceLedger,
  ledgerMovementsOf,
  type PeriodFigures,
  periodHolding,
  periodNamed,
  programmeResults,
  type ReinsuranceLedger,
  recordLoss,
  recordPremium,
  reinsuranceLedgerAggregate,
  reinsuranceStream,
  treatiesOf,
  treatyView,
} from './reinsurance';

// Shareable ids (PF-…, PM-…): drawn once, claimed in their own stream
export { newShareableId, normalizeShareableId, type ShareableIdPrefix, shareableIdStream } from './shareable-id';

// Webhooks: subscriptions, what a breach delivery carries, and when a failed one is retried
export {
  createWebhookSubscription,
  deactivateWebhookSubscription,
  nextDeliveryAttemptAt,
  ownedWebhookSubscription,
  type RegisteredWebhookSubscription,
  triggerBreachedDelivery,
  webhookAggregate,
  webhookStream,
} from './webhooks';

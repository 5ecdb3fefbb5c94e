// Test-only builders other packages' tests share; nothing outside a test imports this folder.

export {
  KHARIF_DEFICIT_SHEET,
  PRF_JAN_FEB_SHEET,
  RAIN_DAYS_SHEET,
  RWBCIS_ORANGE_SHEET,
  SCIC_CORN_SHEET,
} from './example-sheets';
export {
  fieldSourceRegistered,
  gridSourceRegistered,
  stationSourceRegistered,
} from './index-sources';
export { insuredFarmEvents } from './insured-farm';
export { policyIssuedEvents } from './issued-policy';
export { JUNE_DRY_SHEET } from './june-dry-sheet';
export {
  BACKTEST_THEN,
  EVENTS_DECIDED_THEN,
  POLICY_ISSUED_BEFORE_PRODUCTS,
  READINGS_OF_ITS_TERM,
} from './policy-before-products';
export {
  CHIRPS_CELL_A,
  CHIRPS_CELL_B,
  exposureReserved,
  policyExposure,
  programmeCreated,
  STATION_B,
  zoneReadBy,
} from './programmes';
export { dailyReadings, type FieldReadings, firstRecorded, reading, readingsByPeril } from './readings';
export { TERM_ANCHORED_PHASES_SHEET } from './term-anchored-sheet';

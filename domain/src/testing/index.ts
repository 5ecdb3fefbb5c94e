// Test-only builders other packages' tests share; nothing outside a test imports this folder.

export {
  fieldSourceRegistered,
  gridSourceRegistered,
  stationSourceRegistered,
} from './index-sources';
export { insuredFarmEvents } from './insured-farm';
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

// Test-only builders other packages' tests share; nothing outside a test imports this folder.

export {
  fieldSourceRegistered,
  gridSourceRegistered,
  stationSourceRegistered,
} from './index-sources';
export { insuredFarmEvents } from './insured-farm';
export { dailyReadings, type FieldReadings, firstRecorded, reading, readingsByPeril } from './readings';

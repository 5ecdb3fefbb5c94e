// Test-only builders other packages' tests share; nothing outside a test imports this folder.

export { insuredFarmEvents } from './insured-farm';

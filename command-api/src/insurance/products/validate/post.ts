import { ProductSheetRequest, ProductSheetValidation } from '@cropcover/contracts';
import { refuseInvalidSheet, sheetDigest } from '@cropcover/domain';
import { commandRoute } from '../../../command-route';
import { phaseTableBody } from '../phase-table-body';
import { INVALID_TERM_SHEET, MALFORMED_PHASE_TABLE, PRODUCT_WRITERS } from '../product-problems';

/** TERM-SHEETS.md §2.1: a product designer checks a sheet before registering it. Stores nothing. */
export const validateProductSheetRoute = commandRoute('POST /insurance/products/validate', {
  summary: 'Check a term sheet against its language without registering it; stores nothing',
  roles: PRODUCT_WRITERS,
  request: { body: ProductSheetRequest, text: phaseTableBody((sheet) => ({ sheet })) },
  success: {
    status: 200,
    schema: ProductSheetValidation,
    description: 'The sheet breaks no rule; the digest it would be registered under',
  },
  problems: { 400: MALFORMED_PHASE_TABLE, 422: INVALID_TERM_SHEET },
}).handle(async ({ body: { sheet } }) => {
  refuseInvalidSheet(sheet);
  return { valid: true as const, digest: sheetDigest(sheet) };
});

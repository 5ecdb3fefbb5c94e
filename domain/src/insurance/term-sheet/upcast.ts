import {
  type Cover,
  DEFAULT_PRODUCT_ID,
  type IndexAggregate,
  type PolicyIssued,
  type Settle,
  TERM_SHEET_SCHEMA,
  type TermSheet,
  type TriggerTerms,
} from '@cropcover/contracts';
import { type CoverTerm, termDays } from '../calendar/cover-term';
import { MILLIONTHS, millionthsOf } from '../money/decimal';
import { amountDueMinor } from '../money/payout';
import { exactSeverity, severityPpmOf } from '../money/severity';
import { DEFAULT_SHEET, minimumCoverageOf } from './builtin';
import { coverOf, type ProductTerms } from './product';
import { sheetDigest } from './sheet-digest';

// Policies issued before products froze trigger terms, not a sheet (TERM-SHEETS.md §4, backward
// compatibility). On read each becomes `default` version 0: a sheet built from ITS OWN frozen triggers,
// never from today's catalog — a cover per trigger, one phase over the whole term — so it pays, backtests
// and prices to the minor unit as it always did.

const aggregateOf = (terms: TriggerTerms): IndexAggregate => {
  const { aggregation } = terms;
  switch (aggregation.kind) {
    case 'sum':
    case 'max':
      return aggregation.kind;
    case 'max_rolling_sum':
      return { rolling: { days: aggregation.days, stat: 'sum', pick: 'max' } };
    case 'mean_of_last_days':
      return { rolling: { days: aggregation.days, stat: 'mean', pick: 'last' } };
  }
};

const settleOf = ({ declarable }: TriggerTerms): Settle =>
  declarable.kind === 'after_term_days' ? { after_days: declarable.days } : declarable.kind;

/** A summed trigger's level per day of the term (its 2.0 mm × term days), so a backtest's season of
 *  another length is judged on its own days; kept as it is when the division is not a 6-decimal figure
 *  (no policy ever froze such a level: they were all per-day figures × days). */
const frozenLevel = (level: number, terms: TriggerTerms, days: number): number | { per_window_day: number } => {
  if (terms.aggregation.kind !== 'sum') return level;
  const units = millionthsOf(level);
  return units % BigInt(days) === 0n ? { per_window_day: Number(units / BigInt(days)) / Number(MILLIONTHS) } : level;
};

/** One cover of the default product from one frozen trigger over `term`. */
export const coverOfTrigger = (terms: TriggerTerms, term: CoverTerm): Cover => {
  const days = termDays(term);
  const catalog = coverOf(DEFAULT_SHEET, terms.peril);
  return {
    peril: terms.peril,
    index: terms.trigger_index,
    reading: terms.reading,
    limit: 1,
    base_rate: catalog?.base_rate ?? 0,
    exposure: 'term_days',
    ...(catalog?.irrigated_factor === undefined ? {} : { irrigated_factor: catalog.irrigated_factor }),
    phases: [
      {
        id: 'term',
        window: { from: { anchor: 'term_start', days: 0 }, to: { anchor: 'term_end', days: 0 } },
        aggregate: aggregateOf(terms),
        payout: {
          linear: {
            direction: terms.comparison === 'lte' ? 'below' : 'above',
            trigger: frozenLevel(terms.threshold, terms, days),
            exit: frozenLevel(terms.exit, terms, days),
          },
        },
        limit: 1,
        settle: settleOf(terms),
        min_coverage: minimumCoverageOf(terms),
      },
    ],
  };
};

/** The sheet and product a policy was issued on: as frozen, or, before products, `default` version 0
 *  built from its own triggers. */
export const issuedProduct = (issued: PolicyIssued): ProductTerms => {
  if (issued.term_sheet !== undefined && issued.product !== undefined) {
    return { ref: issued.product, sheet: issued.term_sheet };
  }
  const term = { start: issued.term_start, end: issued.term_end };
  const sheet: TermSheet = {
    schema: TERM_SHEET_SCHEMA,
    name: 'CropCover default, as frozen at issue',
    amounts: { unit: 'share' },
    limit: 1,
    rounding: 'half_up',
    ...(DEFAULT_SHEET.pricing === undefined ? {} : { pricing: DEFAULT_SHEET.pricing }),
    covers: issued.triggers.map((terms) => coverOfTrigger(terms, term)),
  };
  return { ref: { product_id: DEFAULT_PRODUCT_ID, version: 0, digest: sheetDigest(sheet) }, sheet };
};

/** What a breach recorded before amounts due were (no `amount_due_minor`) was worth: its severity, as
 *  shown in millionths, × the sum insured, rounded half-up — how it was paid then. */
export const amountDueOfRecordedBreach = (severity: number, sumInsuredMinor: number): number =>
  amountDueMinor(exactSeverity(BigInt(severityPpmOf(severity)), MILLIONTHS), sumInsuredMinor);

import type { LedgerPeriod, ProgrammeResults, TreatyType } from '@cropcover/contracts';
import { toMajorUnits } from '../insurance/money/minor-units';

/** A programme's figures for a period, in minor units: the gross side and each treaty's totals. */
export interface PeriodFigures {
  readonly grossPremiumMinor: number;
  readonly grossClaimsMinor: number;
  readonly treaties: readonly {
    readonly treatyId: string;
    readonly type: TreatyType;
    readonly cededPremiumMinor: number;
    readonly cedingCommissionMinor: number;
    /** A quota share's ceded claims, a stop-loss's or cat XL's recoveries. */
    readonly recoveriesMinor: number;
  }[];
}

/** The period a results query names: `YYYY` is that calendar year, `from..to` those dates; none is the
 *  calendar year of `today`. */
export const periodNamed = (named: string | undefined, today: string): LedgerPeriod => {
  if (named === undefined) return periodNamed(today.slice(0, 4), today);
  const [from, to] = named.split('..');
  return to === undefined ? { from: `${from}-01-01`, to: `${from}-12-31` } : { from: from!, to };
};

/** Gross, ceded and net (SPEC §7): net premium is the gross less the premium ceded (the ceding commission
 *  is shown beside it, not netted), net claims the gross less every treaty's recoveries. */
export const programmeResults = (
  programmeId: string,
  currency: string,
  period: LedgerPeriod,
  figures: PeriodFigures,
): ProgrammeResults => {
  const money = (minor: number) => toMajorUnits(minor, currency);
  const sum = (of: (treaty: PeriodFigures['treaties'][number]) => number) =>
    figures.treaties.reduce((total, treaty) => total + of(treaty), 0);
  return {
    programme_id: programmeId,
    currency,
    period,
    gross_premium: money(figures.grossPremiumMinor),
    gross_claims: money(figures.grossClaimsMinor),
    treaties: figures.treaties.map((treaty) => ({
      treaty_id: treaty.treatyId,
      type: treaty.type,
      ceded_premium: money(treaty.cededPremiumMinor),
      ceding_commission: money(treaty.cedingCommissionMinor),
      recoveries: money(treaty.recoveriesMinor),
    })),
    net_premium: money(figures.grossPremiumMinor - sum((treaty) => treaty.cededPremiumMinor)),
    net_claims: money(figures.grossClaimsMinor - sum((treaty) => treaty.recoveriesMinor)),
  };
};

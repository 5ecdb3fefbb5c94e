import { applyRatio } from './treaty-terms';

// Two risk-sharing formulas of the research note's golden examples that are not treaties a programme
// binds: the Indian cup-and-cap (80:110, 60:130) between insurer and state, and GIF's collateral.

/** Cup-and-cap on gross premium GP (research note §1, G5): the insurer refunds what claims leave below
 *  cup × GP, and the state pays claims above cap × GP. */
export const cupAndCap = (
  { cup, cap }: { readonly cup: number; readonly cap: number },
  grossPremiumMinor: number,
  claimsMinor: number,
): { readonly refundMinor: number; readonly statePaysMinor: number } => ({
  refundMinor: Math.max(0, applyRatio(grossPremiumMinor, cup) - claimsMinor),
  statePaysMinor: Math.max(0, claimsMinor - applyRatio(grossPremiumMinor, cap)),
});

/** GIF's required collateral (PoolLib.calculateRequiredCollateral, G6): total = collateralisation ×
 *  sum insured, local = retention × total — what the pool holds itself; the rest comes from outside. */
export const requiredCollateral = (
  sumInsuredMinor: number,
  { collateralisation, retention }: { readonly collateralisation: number; readonly retention: number },
): { readonly totalMinor: number; readonly localMinor: number } => {
  const totalMinor = applyRatio(sumInsuredMinor, collateralisation);
  return { totalMinor, localMinor: applyRatio(totalMinor, retention) };
};

import type { Cover, Phase, TermSheet } from '@cropcover/contracts';
import {
  type CoverColumn,
  type Fields,
  PAYOUT_COLUMNS,
  type PhaseColumn,
  type SheetColumn,
} from './phase-table-columns';

// Where each field of a sheet sits in the phase table, both ways. Every field of a sheet, a cover and a
// phase is named here: the destructurings end in a rest that must be empty, so a field added to the
// language fails to compile until the table carries it (a field the table dropped would not round-trip).

/** The object without its absent members: an empty cell is an absent field. */
const present = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

export const sheetFields = (sheet: TermSheet): Fields<SheetColumn> => {
  const { schema, name, note, season, amounts, limit, rounding, pricing, covers: _covers, ...unwritten } = sheet;
  unwritten satisfies Record<string, never>;
  return {
    schema,
    name,
    note,
    season_from: season?.from,
    season_to: season?.to,
    ...amounts,
    sheet_limit: limit,
    rounding,
    pricing,
  };
};

export const coverFields = (cover: Cover): Fields<CoverColumn> => {
  const {
    peril,
    phase_mode,
    index,
    reading,
    limit,
    required,
    base_rate,
    exposure,
    irrigated_factor,
    sowing,
    phases: _phases,
    ...unwritten
  } = cover;
  unwritten satisfies Record<string, never>;
  return {
    peril,
    phase_mode,
    index,
    reading,
    cover_limit: limit,
    required,
    base_rate,
    exposure,
    irrigated_factor,
    sowing,
  };
};

export const phaseFields = (phase: Phase): Fields<PhaseColumn> => {
  const { id, window, day, blocks, aggregate, payout, limit, settle, min_coverage, ...unwritten } = phase;
  unwritten satisfies Record<string, never>;
  const map =
    'linear' in payout
      ? { payout: 'linear', ...payout.linear }
      : 'tick' in payout
        ? { payout: 'tick', ...payout.tick }
        : { payout: 'steps', steps: payout.steps };
  return { phase: id, from: window.from, to: window.to, day, blocks, aggregate, ...map, limit, settle, min_coverage };
};

/** The sheet a table's fields say, for the term sheet's schema to check: a field the table leaves empty is
 *  absent, and the schema names what is missing. */
export const sheetOfFields = (
  sheet: Fields<SheetColumn>,
  covers: readonly { readonly cover: Fields<CoverColumn>; readonly phases: readonly Fields<PhaseColumn>[] }[],
): unknown =>
  present({
    schema: sheet.schema,
    name: sheet.name,
    note: sheet.note,
    season:
      sheet.season_from === undefined && sheet.season_to === undefined
        ? undefined
        : present({ from: sheet.season_from, to: sheet.season_to }),
    amounts: present({
      unit: sheet.unit,
      currency: sheet.currency,
      sum_insured_minor: sheet.sum_insured_minor,
      exposure_unit: sheet.exposure_unit,
      value_minor: sheet.value_minor,
    }),
    limit: sheet.sheet_limit,
    rounding: sheet.rounding,
    pricing: sheet.pricing,
    covers: covers.map(({ cover, phases }) =>
      present({
        peril: cover.peril,
        phase_mode: cover.phase_mode,
        index: cover.index,
        reading: cover.reading,
        limit: cover.cover_limit,
        required: cover.required,
        base_rate: cover.base_rate,
        exposure: cover.exposure,
        irrigated_factor: cover.irrigated_factor,
        sowing: cover.sowing,
        phases: phases.map(phaseOfFields),
      }),
    ),
  });

const phaseOfFields = (phase: Fields<PhaseColumn>): unknown =>
  present({
    id: phase.phase,
    window: present({ from: phase.from, to: phase.to }),
    day: phase.day,
    blocks: phase.blocks,
    aggregate: phase.aggregate,
    payout: payoutOfFields(phase),
    limit: phase.limit,
    settle: phase.settle,
    min_coverage: phase.min_coverage,
  });

/** The map `payout` names, of its own columns (the reader has refused cells in another map's columns). */
const payoutOfFields = (phase: Fields<PhaseColumn>): unknown => {
  const kind = phase.payout;
  if (kind === 'steps') return { steps: phase.steps };
  if (kind === 'linear' || kind === 'tick')
    return { [kind]: present(Object.fromEntries(PAYOUT_COLUMNS[kind].map((column) => [column, phase[column]]))) };
  return kind;
};

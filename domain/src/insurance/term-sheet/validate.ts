import type { Cover, Level, Phase, StepRow, TermSheet } from '@cropcover/contracts';
import { type CoverTerm, termDays } from '../calendar/cover-term';
import { MILLIONTHS, millionthsOf } from '../money/decimal';
import { phaseClimatologies } from './climatology-blocks';
import { directionOf, levelOf, readsPercentiles } from './payout-map';
import { amountUnitsOf, unitsOfSumInsured } from './sheet-money';
import {
  blockEndOffsets,
  type DayWindow,
  isBlockAligned,
  isSowingAnchored,
  resolveDate,
  resolveWindow,
  seasonStartingIn,
} from './windows';

// The rules of a term sheet (TERM-SHEETS.md §2.2) beyond its shape, which zod checked: each rule broken is
// one error, so a product designer sees everything wrong with a sheet at once. An invalid sheet is a 422
// `invalid_term_sheet`; windows of a sheet without a season can only be checked on a term (quote, issue).

export type TermSheetRule =
  | 'trigger_exit_order'
  | 'phases_overlap'
  | 'window_outside_term'
  | 'window_empty'
  | 'limit_exceeds_sum_insured'
  | 'limit_exceeds_cover_limit'
  | 'steps_invalid'
  | 'premature_settlement'
  | 'blocks_misaligned'
  | 'blocks_arity'
  | 'normal_not_positive'
  | 'aggregate_invalid'
  | 'duplicate_peril'
  | 'duplicate_phase'
  | 'season_too_long'
  | 'sowing_invalid'
  | 'climatology_period'
  | 'premium_shares_sum';

export interface TermSheetError {
  /** Dotted, from the sheet's root: `covers.0.phases.1.payout.linear.exit`. */
  readonly path: string;
  readonly message: string;
  readonly code: TermSheetRule;
}

const MAX_SEASON_DAYS = 366;

type Path = readonly (string | number)[];
const error = (path: Path, code: TermSheetRule, message: string): TermSheetError => ({
  path: path.join('.'),
  message,
  code,
});

/** Levels compared on `days` of window, or undefined when one is per day and the days are not known, or
 *  one is a percentile and the other not (a location's percentiles are known at quote and issue; two
 *  percentiles compare by rank). */
const levelsOn = (a: Level, b: Level, days: number | undefined): [bigint, bigint] | undefined => {
  const [rankA, rankB] = [a, b].map((level) =>
    typeof level === 'object' && 'percentile' in level ? BigInt(level.percentile) : undefined,
  );
  if (rankA !== undefined || rankB !== undefined) {
    return rankA === undefined || rankB === undefined ? undefined : [rankA, rankB];
  }
  if (days !== undefined) return [levelOf(a, days), levelOf(b, days)];
  if (typeof a === 'number' && typeof b === 'number') return [millionthsOf(a), millionthsOf(b)];
  if (typeof a !== 'number' && typeof b !== 'number' && 'per_window_day' in a && 'per_window_day' in b)
    return [millionthsOf(a.per_window_day), millionthsOf(b.per_window_day)];
  return undefined;
};

const stepErrors = (steps: readonly StepRow[], path: Path): TermSheetError[] => {
  const first = steps[0]!;
  const last = steps.at(-1)!;
  const openBelow = first.from === undefined;
  const openAbove = last.to === undefined;
  if (openBelow && openAbove) {
    return [error(path, 'steps_invalid', 'a step table is open at one end only: the side it pays on')];
  }
  if (!openBelow && !openAbove) {
    return [
      error(
        path,
        'steps_invalid',
        'a step table reaches to one end (no `from` on the first row, or no `to` on the last): the side it pays on',
      ),
    ];
  }
  const errors: TermSheetError[] = [];
  steps.forEach((row, at) => {
    const rowPath = [...path, at];
    if ((at > 0 && row.from === undefined) || (at < steps.length - 1 && row.to === undefined)) {
      errors.push(error(rowPath, 'steps_invalid', 'only the table’s open end may leave `from` or `to` out'));
    }
    if (row.from !== undefined && row.to !== undefined && row.from >= row.to) {
      errors.push(error(rowPath, 'steps_invalid', '`from` must be below `to`'));
    }
    const previous = steps[at - 1];
    if (previous === undefined) return;
    if (previous.to !== undefined && row.from !== undefined && previous.to !== row.from) {
      errors.push(
        error(
          rowPath,
          'steps_invalid',
          `rows must follow each other without gap or overlap: ${previous.to} then ${row.from}`,
        ),
      );
    }
    // Away from the side that pays nothing, a row pays at least what the one before it pays.
    const paysLess = openBelow ? row.pay > previous.pay : row.pay < previous.pay;
    if (paysLess)
      errors.push(error([...rowPath, 'pay'], 'steps_invalid', 'pays less further from the side that pays nothing'));
  });
  return errors;
};

const payoutErrors = (phase: Phase, path: Path, windowDays: number | undefined): TermSheetError[] => {
  const { payout } = phase;
  if (!('linear' in payout)) return 'steps' in payout ? stepErrors(payout.steps, [...path, 'steps']) : [];
  const { direction, trigger, exit } = payout.linear;
  const levels = levelsOn(trigger, exit, windowDays);
  if (levels === undefined) return [];
  const [at, to] = levels;
  const ordered = direction === 'below' ? to < at : to > at;
  return ordered
    ? []
    : [
        error(
          [...path, 'linear', 'exit'],
          'trigger_exit_order',
          `a linear map paying ${direction} its trigger needs an exit ${direction} it (a digital is a step)`,
        ),
      ];
};

const limitErrors = (sheet: TermSheet): TermSheetError[] => {
  const units = amountUnitsOf(sheet.amounts);
  const whole = unitsOfSumInsured(sheet.amounts);
  const within = (amount: number, path: Path): TermSheetError[] =>
    units(amount) > whole
      ? [
          error(
            path,
            'limit_exceeds_sum_insured',
            sheet.amounts.unit !== 'minor'
              ? 'is more than the whole sum insured (1)'
              : 'is more than the basis sum insured',
          ),
        ]
      : [];
  return [
    ...(sheet.limit === undefined ? [] : within(sheet.limit, ['limit'])),
    ...sheet.covers.flatMap((cover, at) => [
      ...within(cover.limit, ['covers', at, 'limit']),
      ...cover.phases.flatMap((phase, index) => {
        const path = ['covers', at, 'phases', index];
        const steps = 'steps' in phase.payout ? phase.payout.steps : [];
        return [
          ...within(phase.limit, [...path, 'limit']),
          ...(units(phase.limit) > units(cover.limit)
            ? [error([...path, 'limit'], 'limit_exceeds_cover_limit', 'is more than its cover’s limit')]
            : []),
          ...steps.flatMap((row, step) => {
            const rowPath = [...path, 'payout', 'steps', step, 'pay'];
            return [
              ...within(row.pay, rowPath),
              ...(units(row.pay) > units(phase.limit)
                ? [error(rowPath, 'limit_exceeds_cover_limit', 'pays more than its phase’s limit')]
                : []),
            ];
          }),
        ];
      }),
    ]),
  ];
};

const phaseErrors = (cover: Cover, phase: Phase, path: Path): TermSheetError[] => {
  const errors: TermSheetError[] = [];
  const { aggregate, blocks, day } = phase;
  if (aggregate === 'longest_run' && (day === undefined || !('is' in day))) {
    errors.push(
      error([...path, 'aggregate'], 'aggregate_invalid', 'a longest run counts days of a predicate: it needs `day.is`'),
    );
  }
  const countsDays = typeof aggregate !== 'string' && ('first_day' in aggregate || 'last_day' in aggregate);
  const countsRuns = typeof aggregate !== 'string' && 'events' in aggregate && 'min_days' in aggregate.events;
  if ((countsDays || countsRuns) && (day === undefined || !('is' in day))) {
    errors.push(
      error(
        [...path, 'aggregate'],
        'aggregate_invalid',
        'events and event dates count days of a predicate: they need `day.is`',
      ),
    );
  }
  if (countsDays && directionOf(phase.payout) === 'below') {
    errors.push(
      error(
        [...path, 'payout'],
        'aggregate_invalid',
        'an event’s day number is 0 when no day qualifies: it pays above its trigger, never below',
      ),
    );
  }
  if (blocks !== undefined && (typeof aggregate !== 'string' || aggregate === 'longest_run')) {
    errors.push(error([...path, 'aggregate'], 'aggregate_invalid', 'blocks are aggregated by sum, mean, max or min'));
  }
  const settle = phase.settle ?? 'any_time';
  const summed = aggregate === 'sum' || aggregate === 'mean' || blocks !== undefined;
  if (directionOf(phase.payout) === 'below' && summed && settle !== 'window_closed') {
    errors.push(
      error(
        [...path, 'settle'],
        'premature_settlement',
        'a deficit over a sum, a mean or blocks settles when its window closes: a window half gone looks dry',
      ),
    );
  }
  const normal = blocks?.vs_normal !== undefined && 'normal' in blocks.vs_normal ? blocks.vs_normal : undefined;
  if (normal?.as === 'percent' && normal.normal.some((value) => value <= 0)) {
    errors.push(
      error(
        [...path, 'blocks', 'vs_normal', 'normal'],
        'normal_not_positive',
        'a percent of normal needs normals above 0',
      ),
    );
  }
  if (normal?.as === 'z' && (normal.sd ?? []).some((value) => value <= 0)) {
    errors.push(
      error(
        [...path, 'blocks', 'vs_normal', 'sd'],
        'normal_not_positive',
        'a z-score needs standard deviations above 0',
      ),
    );
  }
  if (normal?.as === 'z' && normal.sd === undefined) {
    errors.push(
      error([...path, 'blocks', 'vs_normal', 'sd'], 'blocks_arity', 'a z-score needs a standard deviation per block'),
    );
  }
  if (cover.sowing === undefined && isSowingAnchored(phase.window)) {
    errors.push(error([...path, 'window'], 'sowing_invalid', 'a window anchored on sowing needs the cover’s `sowing`'));
  }
  return errors;
};

/** The days one rolling span or one event of days covers, if the aggregate has such a span. */
const spanDaysOf = (aggregate: Phase['aggregate']): number | undefined => {
  if (typeof aggregate === 'string') return undefined;
  if ('rolling' in aggregate) return aggregate.rolling.days;
  if ('events' in aggregate) return 'days' in aggregate.events ? aggregate.events.days : aggregate.events.min_days;
  return undefined;
};

const outside = (window: DayWindow, term: CoverTerm): boolean => window.start < term.start || window.end > term.end;

/** The windows of a cover on one term (and, for windows anchored on sowing, one sowing date). */
const windowErrorsOn = (
  cover: Cover,
  path: Path,
  term: CoverTerm,
  sowingDate: string | undefined,
): TermSheetError[] => {
  const errors: TermSheetError[] = [];
  let previous: DayWindow | undefined;
  cover.phases.forEach((phase, index) => {
    const phasePath = [...path, 'phases', index, 'window'];
    const window = resolveWindow(phase.window, term, sowingDate);
    if (window === undefined) return;
    if (window.end < window.start) {
      errors.push(error(phasePath, 'window_empty', `ends (${window.end}) before it starts (${window.start})`));
      return;
    }
    if (outside(window, term)) {
      errors.push(
        error(
          phasePath,
          'window_outside_term',
          `${window.start} … ${window.end} is not within ${term.start} … ${term.end}`,
        ),
      );
    }
    if (cover.phase_mode !== 'concurrent' && previous !== undefined && window.start <= previous.end) {
      errors.push(
        error(
          phasePath,
          'phases_overlap',
          `starts (${window.start}) before the phase before it ends (${previous.end})`,
        ),
      );
    }
    previous = window;
    const spanDays = spanDaysOf(phase.aggregate);
    if (spanDays !== undefined && spanDays > window.endDay - window.startDay + 1) {
      errors.push(
        error([...path, 'phases', index, 'aggregate'], 'aggregate_invalid', 'spans more days than its window has'),
      );
    }
    if (phase.blocks?.by === 'source_period') {
      // The source's periods are known at quote and issue (period_mismatch there); their figures come from
      // a climatology, as no list can say how many periods a window holds before its source is named.
      const listed = [
        ...(phase.blocks.vs_normal !== undefined && 'normal' in phase.blocks.vs_normal ? ['vs_normal'] : []),
        ...(phase.blocks.weights === undefined ? [] : ['weights']),
      ];
      for (const name of listed) {
        errors.push(
          error(
            [...path, 'phases', index, 'blocks', name],
            'blocks_arity',
            'source_period blocks read their figures from a climatology, not a list',
          ),
        );
      }
    } else if (phase.blocks !== undefined) {
      const blocksPath = [...path, 'phases', index, 'blocks'];
      if (!isBlockAligned(phase.blocks.by, window)) {
        errors.push(
          error(
            blocksPath,
            'blocks_misaligned',
            `${window.start} … ${window.end} does not start and end on block boundaries`,
          ),
        );
      }
      const count = blockEndOffsets(phase.blocks.by, window).length;
      const listed =
        phase.blocks.vs_normal !== undefined && 'normal' in phase.blocks.vs_normal ? phase.blocks.vs_normal : undefined;
      const lists = {
        normal: listed?.normal,
        sd: listed?.sd,
        weights: phase.blocks.weights,
      };
      for (const [name, list] of Object.entries(lists)) {
        if (list !== undefined && list.length !== count) {
          errors.push(error([...blocksPath, name], 'blocks_arity', `has ${list.length} entries for ${count} blocks`));
        }
      }
    }
  });
  return errors;
};

/** Each error once, in the order found: a window checked at both ends of a sowing range, or in two years,
 *  breaks its rule once. */
const once = (errors: readonly TermSheetError[]): TermSheetError[] => {
  const seen = new Set<string>();
  return errors.filter((found) => {
    const key = `${found.path}|${found.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** The windows of every cover on a term: within it, not empty, in order, blocks on their boundaries, no
 *  longer than what rolls over them. A sowing range must lie in the term too, and windows anchored on it
 *  are checked at both ends of it. */
export const windowErrors = (sheet: TermSheet, term: CoverTerm): TermSheetError[] =>
  once(
    sheet.covers.flatMap((cover, at) => {
      const path = ['covers', at];
      if (cover.sowing === undefined) return windowErrorsOn(cover, path, term, undefined);
      const from = resolveDate(cover.sowing.from, term, undefined);
      const to = resolveDate(cover.sowing.to, term, undefined);
      if (from === undefined || to === undefined) return windowErrorsOn(cover, path, term, undefined);
      const sowingPath = [...path, 'sowing'];
      return [
        ...(to < from ? [error(sowingPath, 'window_empty', `ends (${to}) before it starts (${from})`)] : []),
        ...(from < term.start || to > term.end
          ? [error(sowingPath, 'window_outside_term', `${from} … ${to} is not within ${term.start} … ${term.end}`)]
          : []),
        ...windowErrorsOn(cover, path, term, from),
        ...windowErrorsOn(cover, path, term, to),
      ];
    }),
  );

/** The seasons starting in 2027 and 2028: one has a February of 28 days, the other one of 29, whether or
 *  not the season crosses a new year (its February is then 2028's or 2029's). A window whose days depend
 *  on the year — one holding 29 February, one ending `02-29` — is checked both ways. */
const CHECKED_YEARS = [2027, 2028];

/** Every rule of TERM-SHEETS.md §2.2 the sheet breaks, one error each; empty when it is valid. */
export const validateTermSheet = (sheet: TermSheet): TermSheetError[] => {
  const errors: TermSheetError[] = [];
  const shares = sheet.pricing?.premium_shares;
  if (shares !== undefined && shares.reduce((sum, { share }) => sum + millionthsOf(share), 0n) !== MILLIONTHS) {
    errors.push(
      error(['pricing', 'premium_shares'], 'premium_shares_sum', 'the shares of the premium add up to 1 exactly'),
    );
  }
  const perils = new Set<string>();
  sheet.covers.forEach((cover, at) => {
    const path = ['covers', at];
    if (perils.has(cover.peril))
      errors.push(error([...path, 'peril'], 'duplicate_peril', `${cover.peril} has another cover`));
    perils.add(cover.peril);
    if (cover.sowing !== undefined) {
      if (cover.reading !== 'rainfall_mm') {
        errors.push(
          error(
            [...path, 'sowing'],
            'sowing_invalid',
            'sowing is detected from rainfall: the cover reads another index',
          ),
        );
      }
      if ([cover.sowing.from, cover.sowing.to].some((ref) => typeof ref !== 'string' && ref.anchor === 'sowing')) {
        errors.push(error([...path, 'sowing'], 'sowing_invalid', 'the sowing range cannot be anchored on sowing'));
      }
    }
    // A policy freezes one climatology per peril's data source: a cover's blocks and percentiles read one.
    const climatologies = new Set(
      cover.phases
        .flatMap(phaseClimatologies)
        .map(({ name, version }) => (version === undefined ? name : `${name} version ${version}`)),
    );
    if (climatologies.size > 1) {
      errors.push(
        error(
          [...path, 'phases'],
          'climatology_period',
          `a cover reads one climatology, not ${[...climatologies].join(', ')}`,
        ),
      );
    }
    cover.phases.forEach((phase, index) => {
      if (climatologies.size === 0 && readsPercentiles(phase.payout)) {
        errors.push(
          error(
            [...path, 'phases', index, 'payout'],
            'climatology_period',
            'a percentile level is of a climatology: name it on the level, or read the blocks against one',
          ),
        );
      }
    });
    const ids = new Set<string>();
    cover.phases.forEach((phase, index) => {
      const phasePath = [...path, 'phases', index];
      if (ids.has(phase.id))
        errors.push(error([...phasePath, 'id'], 'duplicate_phase', `${phase.id} names another phase`));
      ids.add(phase.id);
      errors.push(...phaseErrors(cover, phase, phasePath));
      // Levels per window day against fixed ones are ordered on the window's days in every checked season.
      const windows =
        sheet.season === undefined
          ? [undefined]
          : CHECKED_YEARS.map((year) => resolveWindow(phase.window, seasonStartingIn(sheet.season!, year), undefined));
      for (const window of windows) {
        const days = window === undefined ? undefined : window.endDay - window.startDay + 1;
        errors.push(...payoutErrors(phase, [...phasePath, 'payout'], days));
      }
    });
  });
  errors.push(...limitErrors(sheet));
  if (sheet.season !== undefined) {
    const seasons = CHECKED_YEARS.map((year) => seasonStartingIn(sheet.season!, year));
    if (seasons.some((season) => termDays(season) > MAX_SEASON_DAYS)) {
      errors.push(error(['season'], 'season_too_long', `a season is at most ${MAX_SEASON_DAYS} days`));
    } else {
      errors.push(...seasons.flatMap((season) => windowErrors(sheet, season)));
    }
  }
  return once(errors);
};

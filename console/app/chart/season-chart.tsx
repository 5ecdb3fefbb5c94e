import { figure } from '../format';
import { linearScale } from './scales';

// Amounts per season as bars, a bar for each series side by side (a book's gross and net loss, a
// product's amount due at a location), with a line across for each average. What is drawn carries data
// attributes, and a table beside the chart says the same in figures.

export interface SeasonSeries {
  /** Names the bars' and the average's colours: `season-<kind>`, `average-<kind>`. */
  readonly kind: string;
  readonly label: string;
}

export interface SeasonBar {
  readonly key: string;
  readonly label: string;
  /** One value a series, in the model's series order. */
  readonly values: readonly number[];
  /** A season whose data was not complete is drawn hatched and said so. */
  readonly complete: boolean;
}

export interface SeasonChartModel {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly unit: string;
  readonly series: readonly SeasonSeries[];
  readonly bars: readonly SeasonBar[];
  readonly averages: readonly { readonly kind: string; readonly label: string; readonly value: number }[];
}

const WIDTH = 840;
const HEIGHT = 300;
const MARGIN = { left: 80, right: 24, top: 28, bottom: 40 };

export const SeasonChart = ({ model }: { model: SeasonChartModel }) => {
  const bottom = HEIGHT - MARGIN.bottom;
  const scale = linearScale(
    [...model.bars.flatMap((bar) => bar.values), ...model.averages.map((average) => average.value)],
    bottom,
    MARGIN.top,
  );
  const slot = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, model.bars.length);
  const xOf = (index: number) => MARGIN.left + index * slot;
  const barWidth = (slot * 0.76) / Math.max(1, model.series.length);
  const titleId = `${model.id}-title`;
  const descriptionId = `${model.id}-description`;
  const bar = (kind: string, value: number, x: number) => (
    <rect
      key={kind}
      class={`season-${kind}`}
      x={x}
      width={barWidth}
      y={Math.min(scale.y(value), scale.y(0))}
      height={Math.max(0.5, Math.abs(scale.y(value) - scale.y(0)))}
      data-kind={kind}
      data-value={value}
    />
  );
  return (
    <figure class="time-chart season-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        data-chart={model.id}
      >
        <title id={titleId}>{model.title}</title>
        <desc id={descriptionId}>{model.description}</desc>
        <g class="axis axis-left">
          {scale.ticks.map((tick) => (
            <g key={tick} data-tick={tick} data-y={scale.y(tick)}>
              <line class="grid" x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={scale.y(tick)} y2={scale.y(tick)} />
              <text x={MARGIN.left - 6} y={scale.y(tick) + 4} text-anchor="end">
                {figure(tick)}
              </text>
            </g>
          ))}
          <text class="axis-label" x={MARGIN.left} y={MARGIN.top - 12}>
            {model.unit}
          </text>
        </g>
        {model.bars.map((season, index) => (
          <g
            key={season.key}
            class={season.complete ? 'season' : 'season season-incomplete'}
            data-season={season.key}
            data-complete={season.complete}
          >
            <title>
              {season.label}:{' '}
              {model.series.map((series, at) => `${series.label} ${figure(season.values[at])}`).join(', ')}
              {season.complete ? '' : ' (incomplete data)'}
            </title>
            {model.series.map((series, at) =>
              bar(series.kind, season.values[at] ?? 0, xOf(index) + slot * 0.12 + at * barWidth),
            )}
            <text x={xOf(index) + slot / 2} y={bottom + 18} text-anchor="middle">
              {season.label}
            </text>
          </g>
        ))}
        {model.averages.map((average) => (
          <g key={average.kind} class={`average average-${average.kind}`}>
            <line
              x1={MARGIN.left}
              x2={WIDTH - MARGIN.right}
              y1={scale.y(average.value)}
              y2={scale.y(average.value)}
              data-average={average.kind}
              data-value={average.value}
            />
            <text x={WIDTH - MARGIN.right - 4} y={scale.y(average.value) - 4} text-anchor="end">
              {average.label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>
        <ul class="legend">
          {model.series.map((series) => (
            <li key={series.kind}>
              <span class={`swatch swatch-season-${series.kind}`} aria-hidden="true" />
              {series.label}
            </li>
          ))}
          {model.averages.map((average) => (
            <li key={average.kind}>
              <span class={`swatch swatch-average-${average.kind}`} aria-hidden="true" />
              {average.label}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
};

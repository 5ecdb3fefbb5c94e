import { figure } from '../format';
import { linearScale } from './scales';

// Losses per season as bars, gross and net side by side, with a line across for each average: the
// as-if history of a book. What is drawn carries data attributes, and a table says the same in figures.

export interface SeasonBar {
  readonly key: string;
  readonly label: string;
  readonly gross: number;
  readonly net: number;
  /** A season whose data was not complete is drawn hatched and said so. */
  readonly complete: boolean;
}

export interface SeasonChartModel {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly unit: string;
  readonly bars: readonly SeasonBar[];
  readonly averages: readonly { readonly kind: 'gross' | 'net'; readonly label: string; readonly value: number }[];
}

const WIDTH = 840;
const HEIGHT = 300;
const MARGIN = { left: 80, right: 24, top: 28, bottom: 40 };

export const SeasonChart = ({ model }: { model: SeasonChartModel }) => {
  const bottom = HEIGHT - MARGIN.bottom;
  const scale = linearScale(
    [...model.bars.flatMap((bar) => [bar.gross, bar.net]), ...model.averages.map((average) => average.value)],
    bottom,
    MARGIN.top,
  );
  const slot = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, model.bars.length);
  const xOf = (index: number) => MARGIN.left + index * slot;
  const barWidth = slot * 0.38;
  const titleId = `${model.id}-title`;
  const descriptionId = `${model.id}-description`;
  const bar = (kind: 'gross' | 'net', value: number, x: number) => (
    <rect
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
            data-gross={season.gross}
            data-net={season.net}
            data-complete={season.complete}
          >
            <title>
              {season.label}: gross {figure(season.gross)}, net {figure(season.net)}
              {season.complete ? '' : ' (incomplete data)'}
            </title>
            {bar('gross', season.gross, xOf(index) + slot * 0.1)}
            {bar('net', season.net, xOf(index) + slot * 0.1 + barWidth)}
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
          <li>
            <span class="swatch swatch-season-gross" aria-hidden="true" />
            gross loss
          </li>
          <li>
            <span class="swatch swatch-season-net" aria-hidden="true" />
            net of treaties
          </li>
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

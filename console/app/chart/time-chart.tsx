import { earlierDate, laterDate } from '../dates';
import { dayAndMonth, figure } from '../format';
import { ChartTable } from './chart-table';
import { dateTicks, dayScale, type LinearScale, linearScale } from './scales';
import type { DailyValue, Marker, Series, TimeChartModel } from './time-chart-model';

// One SVG chart of days: what is drawn carries data attributes (dates, values) so a test or a script
// reads the chart as a person sees it, and a table below says the same for those who cannot see it.

const WIDTH = 840;
const HEIGHT = 340;
const MARGIN = { left: 64, top: 36, bottom: 40 };
const FLAG_Y = 14;

const valuesOf = (series: readonly Series[]): number[] =>
  series.flatMap((one) => one.points.flatMap((point) => (point.value === null ? [] : [point.value])));

/** A line through the points, broken where a day has no value. */
const linePath = (points: readonly DailyValue[], x: (date: string) => number, scale: LinearScale): string => {
  let path = '';
  let drawing = false;
  for (const point of points) {
    if (point.value === null) {
      drawing = false;
      continue;
    }
    path += `${drawing ? 'L' : 'M'}${x(point.date).toFixed(1)},${scale.y(point.value).toFixed(1)}`;
    drawing = true;
  }
  return path;
};

const dataAttributes = (marker: Marker): Record<string, string | number> =>
  Object.fromEntries(Object.entries(marker.data ?? {}).map(([key, value]) => [`data-${key}`, value]));

export const TimeChart = ({ model }: { model: TimeChartModel }) => {
  const right = model.axes.right === undefined ? 24 : 64;
  const bottom = HEIGHT - MARGIN.bottom;
  const { slot, x } = dayScale(model.from, model.to, MARGIN.left, WIDTH - right);
  const leftSeries = model.series.filter((series) => series.axis === 'left');
  const rightSeries = model.series.filter((series) => series.axis === 'right');
  const leftScale = linearScale(
    [
      ...valuesOf(leftSeries),
      ...model.bands.flatMap((band) => band.lines.map((line) => line.value)),
      ...model.markers.flatMap((marker) => (marker.value === undefined ? [] : [marker.value])),
    ],
    bottom,
    MARGIN.top,
  );
  const rightScale =
    model.axes.right === undefined ? undefined : linearScale(valuesOf(rightSeries), bottom, MARGIN.top);
  const scaleOf = (series: Series) => (series.axis === 'left' ? leftScale : (rightScale ?? leftScale));
  const inDomain = (date: string) => date >= model.from && date <= model.to;
  // Each band over the days it spans inside the chart, from the first slot's left edge to the last's right.
  const bandExtents = model.bands.map((band) => ({
    band,
    start: x(laterDate(band.from, model.from)) - slot / 2,
    end: x(earlierDate(band.to, model.to)) + slot / 2,
  }));
  const titleId = `${model.id}-title`;
  const descriptionId = `${model.id}-description`;

  return (
    <figure class="time-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        data-chart={model.id}
        data-from={model.from}
        data-to={model.to}
      >
        <title id={titleId}>{model.title}</title>
        <desc id={descriptionId}>{model.description}</desc>
        {bandExtents.map(({ band, start, end }) => (
          <rect key={band.id} class="band" x={start} y={MARGIN.top} width={end - start} height={bottom - MARGIN.top} />
        ))}
        <g class="axis axis-left">
          {leftScale.ticks.map((tick) => (
            <g key={tick} data-tick={tick} data-y={leftScale.y(tick)}>
              <line class="grid" x1={MARGIN.left} x2={WIDTH - right} y1={leftScale.y(tick)} y2={leftScale.y(tick)} />
              <text x={MARGIN.left - 6} y={leftScale.y(tick) + 4} text-anchor="end">
                {figure(tick)}
              </text>
            </g>
          ))}
          <text class="axis-label" x={MARGIN.left} y={MARGIN.top - FLAG_Y - 8}>
            {model.axes.left}
          </text>
        </g>
        {rightScale && (
          <g class="axis axis-right">
            {rightScale.ticks.map((tick) => (
              <text key={tick} x={WIDTH - right + 6} y={rightScale.y(tick) + 4}>
                {figure(tick)}
              </text>
            ))}
            <text class="axis-label" x={WIDTH - 4} y={MARGIN.top - FLAG_Y - 8} text-anchor="end">
              {model.axes.right}
            </text>
          </g>
        )}
        <g class="axis axis-time">
          {dateTicks(model.from, model.to).map((date) => (
            <text key={date} x={x(date)} y={bottom + 18} text-anchor="middle" data-date={date}>
              {dayAndMonth(date)}
            </text>
          ))}
        </g>
        {rightSeries.concat(leftSeries).map((series) =>
          series.style === 'bars' ? (
            <g key={series.id} class={`series series-${series.id}`} data-series={series.id}>
              {series.points
                .filter((point) => point.value !== null && inDomain(point.date))
                .map((point) => {
                  const scale = scaleOf(series);
                  const top = Math.min(scale.y(point.value!), scale.y(0));
                  return (
                    <rect
                      key={point.date}
                      x={x(point.date) - slot * 0.35}
                      width={slot * 0.7}
                      y={top}
                      height={Math.max(0.5, Math.abs(scale.y(point.value!) - scale.y(0)))}
                      data-date={point.date}
                      data-value={point.value!}
                      data-x={x(point.date)}
                    />
                  );
                })}
            </g>
          ) : (
            <g key={series.id} class={`series series-${series.id}`} data-series={series.id}>
              <path d={linePath(series.points, x, scaleOf(series))} />
            </g>
          ),
        )}
        {bandExtents.map(({ band, start, end }) => (
          <g key={band.id} class="band-levels" data-band={band.id} data-from={band.from} data-to={band.to}>
            {band.lines.map((line) => (
              <g key={line.kind} class={`level level-${line.kind}`}>
                <line
                  x1={start}
                  x2={end}
                  y1={leftScale.y(line.value)}
                  y2={leftScale.y(line.value)}
                  data-level={line.kind}
                  data-value={line.value}
                />
                <text x={end - 4} y={leftScale.y(line.value) - 4} text-anchor="end">
                  {line.label}
                </text>
              </g>
            ))}
          </g>
        ))}
        <g class="markers">
          {model.markers
            .filter((marker) => inDomain(marker.date))
            .map((marker, index) => (
              <g
                key={`${marker.kind}-${marker.date}-${index}`}
                class={`marker marker-${marker.kind}`}
                data-marker={marker.kind}
                data-date={marker.date}
                data-x={x(marker.date)}
                {...(marker.value === undefined ? {} : { 'data-value': marker.value })}
                {...dataAttributes(marker)}
              >
                <title>{marker.label}</title>
                {marker.value === undefined ? (
                  <>
                    <line x1={x(marker.date)} x2={x(marker.date)} y1={MARGIN.top - FLAG_Y + 6} y2={bottom} />
                    <path
                      d={`M${x(marker.date)},${MARGIN.top - FLAG_Y + 6}l-6,-10h12z`}
                      transform={`translate(0 ${-2})`}
                    />
                  </>
                ) : (
                  <circle cx={x(marker.date)} cy={leftScale.y(marker.value)} r={4.5} />
                )}
              </g>
            ))}
        </g>
      </svg>
      <figcaption>
        <Legend model={model} />
      </figcaption>
      <ChartTable model={model} />
    </figure>
  );
};

const Legend = ({ model }: { model: TimeChartModel }) => {
  const lines = new Map(model.bands.flatMap((band) => band.lines.map((line) => [line.kind, line.kind] as const)));
  const markers = new Set(model.markers.map((marker) => marker.kind));
  return (
    <ul class="legend">
      {model.series.map((series) => (
        <li key={series.id}>
          <span class={`swatch swatch-series-${series.id}`} aria-hidden="true" />
          {series.label} ({series.axis} axis)
        </li>
      ))}
      {[...lines.keys()].map((kind) => (
        <li key={kind}>
          <span class={`swatch swatch-level-${kind}`} aria-hidden="true" />
          {kind} level
        </li>
      ))}
      {[...markers].map((kind) => (
        <li key={kind}>
          <span class={`swatch swatch-marker-${kind}`} aria-hidden="true" />
          {kind}
        </li>
      ))}
    </ul>
  );
};

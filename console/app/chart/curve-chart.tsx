import { useState } from 'preact/hooks';
import { figure } from '../format';
import { linearScale } from './scales';

// A chart of lines over a numeric axis (a payout curve: index value → amount), drawn with the same scales,
// markup and table as the time chart: what is drawn carries data attributes, and a table below says the
// same in figures for those who cannot see it.

export interface CurvePoint {
  readonly x: number;
  readonly y: number;
}

export interface CurveLine {
  /** `cover`, `phase-1`, …: also its look and its data-line attribute. */
  readonly id: string;
  readonly label: string;
  readonly points: readonly CurvePoint[];
}

export interface CurveChartModel {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly lines: readonly CurveLine[];
}

const WIDTH = 840;
const HEIGHT = 340;
const MARGIN = { left: 80, right: 24, top: 36, bottom: 48 };

export const CurveChart = ({ model }: { model: CurveChartModel }) => {
  const bottom = HEIGHT - MARGIN.bottom;
  const points = model.lines.flatMap((line) => line.points);
  const xScale = linearScale(
    points.map((point) => point.x),
    MARGIN.left,
    WIDTH - MARGIN.right,
  );
  const yScale = linearScale(
    points.map((point) => point.y),
    bottom,
    MARGIN.top,
  );
  const path = (line: CurveLine) =>
    line.points
      .map((point, at) => `${at === 0 ? 'M' : 'L'}${xScale.y(point.x).toFixed(1)},${yScale.y(point.y).toFixed(1)}`)
      .join('');
  const titleId = `${model.id}-title`;
  const descriptionId = `${model.id}-description`;
  return (
    <figure class="time-chart curve-chart">
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
          {yScale.ticks.map((tick) => (
            <g key={tick} data-tick={tick}>
              <line class="grid" x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={yScale.y(tick)} y2={yScale.y(tick)} />
              <text x={MARGIN.left - 6} y={yScale.y(tick) + 4} text-anchor="end">
                {figure(tick)}
              </text>
            </g>
          ))}
          <text class="axis-label" x={MARGIN.left} y={MARGIN.top - 14}>
            {model.yLabel}
          </text>
        </g>
        <g class="axis axis-bottom">
          {xScale.ticks.map((tick) => (
            <text key={tick} x={xScale.y(tick)} y={bottom + 18} text-anchor="middle" data-tick={tick}>
              {figure(tick)}
            </text>
          ))}
          <text class="axis-label" x={WIDTH - MARGIN.right} y={HEIGHT - 6} text-anchor="end">
            {model.xLabel}
          </text>
        </g>
        {model.lines.map((line) => (
          <g
            key={line.id}
            class={`curve-line curve-line-${line.id}`}
            data-line={line.id}
            data-points={line.points.length}
          >
            <path d={path(line)} />
          </g>
        ))}
      </svg>
      <figcaption>
        <ul class="legend">
          {model.lines.map((line) => (
            <li key={line.id}>
              <span class={`swatch swatch-curve swatch-curve-${line.id}`} aria-hidden="true" />
              {line.label}
            </li>
          ))}
        </ul>
      </figcaption>
      <CurveTable model={model} />
    </figure>
  );
};

/** The curve as a table, point by point; made when first opened. */
const CurveTable = ({ model }: { model: CurveChartModel }) => {
  const [opened, setOpened] = useState(false);
  const [first] = model.lines;
  return (
    <details class="chart-table" onToggle={(event) => setOpened(opened || event.currentTarget.open)}>
      <summary>Table of the chart: {model.title}</summary>
      {opened && first !== undefined && (
        <table data-chart-table={model.id}>
          <caption>{model.title}, point by point</caption>
          <thead>
            <tr>
              <th scope="col">{model.xLabel}</th>
              {model.lines.map((line) => (
                <th scope="col" key={line.id} class="number">
                  {line.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {first.points.map((point, at) => (
              <tr key={point.x}>
                <th scope="row">{figure(point.x)}</th>
                {model.lines.map((line) => (
                  <td key={line.id} class="number">
                    {figure(line.points[at]?.y)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
};

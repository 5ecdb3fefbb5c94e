import { useState } from 'preact/hooks';
import { datesOf } from '../dates';
import { calendarDate } from '../format';
import type { TimeChartModel } from './time-chart-model';

/** The chart as a table, day by day: every value drawn and every marker, for screen readers and for
 *  anyone who wants the figures. Made when first opened (hundreds of rows per chart otherwise slow every
 *  page down); days with nothing on them are left out. */
export const ChartTable = ({ model }: { model: TimeChartModel }) => {
  const [opened, setOpened] = useState(false);
  return (
    <details class="chart-table" onToggle={(event) => setOpened(opened || event.currentTarget.open)}>
      <summary>Table of the chart: {model.title}</summary>
      {opened && <ChartTableBody model={model} />}
    </details>
  );
};

const ChartTableBody = ({ model }: { model: TimeChartModel }) => {
  const byDate = model.series.map((series) => new Map(series.points.map((point) => [point.date, point.value])));
  const rows = datesOf(model.from, model.to).flatMap((date) => {
    const values = byDate.map((series) => series.get(date) ?? null);
    const markers = model.markers.filter((marker) => marker.date === date).map((marker) => marker.label);
    return values.every((value) => value === null) && markers.length === 0 ? [] : [{ date, values, markers }];
  });
  return (
    <>
      <p>{model.bands.map((band) => `${band.label}: ${band.lines.map((line) => line.label).join(', ')}`).join('; ')}</p>
      <table data-chart-table={model.id}>
        <caption>{model.title}, day by day</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {model.series.map((series) => (
              <th scope="col" key={series.id}>
                {series.label}
              </th>
            ))}
            <th scope="col">Events</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.date}>
              <th scope="row">{calendarDate(row.date)}</th>
              {row.values.map((value, index) => (
                <td key={model.series[index]!.id}>{value ?? '—'}</td>
              ))}
              <td>{row.markers.join('; ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
};

import type { MonitoredPeril } from '@cropcover/domain';
import { describe, expect, it } from 'vitest';
import { monitoredPerilsFromColumns, monitoredPerilsToColumns } from './monitored-days';

describe("the round table's columns of a monitored day", () => {
  const perils: MonitoredPeril[] = [
    {
      peril: 'drought',
      observed_value: 212.4,
      coverage: { days_with_reading: 45, days_in_window: 60 },
      breached: false,
      amount_due_minor: null,
      readings_from: '2026-03-01',
      readings_to: '2026-04-14',
      digest: `sha256:${'ab'.repeat(32)}`,
    },
    {
      peril: 'flood',
      observed_value: 220,
      coverage: null,
      breached: true,
      amount_due_minor: 125_000,
      readings_from: null,
      readings_to: null,
      digest: null,
    },
    { peril: 'storm', skipped_reason: 'incomplete_data' },
  ];

  it('gives back every peril as it was decided, digests in 32 bytes', () => {
    const columns = monitoredPerilsToColumns(perils);
    expect(columns.digests).toEqual(['ab'.repeat(32), null, null]);
    const digests = columns.digests.map((hex) => (hex === null ? null : Buffer.from(hex, 'hex')));
    expect(monitoredPerilsFromColumns(JSON.parse(JSON.stringify(columns.perils)), digests)).toEqual(perils);
  });

  it('refuses a digest it could not give back as it was', () => {
    expect(() => monitoredPerilsToColumns([{ ...perils[0]!, digest: 'md5:00' } as MonitoredPeril])).toThrow('md5:00');
  });
});

import { describe, expect, it } from 'vitest';
import { type BacktestForm, backtestRequest, blankBacktestForm } from './backtest-request';

const product = { product_id: 'june-dry', version: 2, digest: 'sha256:abc' };
const form: BacktestForm = {
  sourceId: ' chirps ',
  locations: '-1.25,36.75\n\n  -1.40,36.90  \n',
  from: '2019',
  to: '2021',
  outcomes: '',
  lossThreshold: '',
};

describe('the backtest form as a request', () => {
  it('opens on the twenty seasons before this year, nothing else filled in', () => {
    expect(blankBacktestForm('2026-11-28')).toEqual({
      sourceId: '',
      locations: '',
      from: '2006',
      to: '2025',
      outcomes: '',
      lossThreshold: '',
    });
  });

  it('asks for the version shown, each location a line on the one source, blank lines dropped', () => {
    expect(backtestRequest(product, form)).toEqual({
      request: {
        product,
        locations: [
          { source_id: 'chirps', location: '-1.25,36.75' },
          { source_id: 'chirps', location: '-1.40,36.90' },
        ],
        seasons: { from: 2019, to: 2021 },
      },
    });
  });

  it('reads each observed loss as location, season and loss ratio, a location of several words too', () => {
    const answer = backtestRequest(product, {
      ...form,
      outcomes: '-1.25,36.75 2020 0.4\nNakuru  Station 2021 0.55',
      lossThreshold: '0.3',
    });
    expect(answer.request).toMatchObject({
      outcomes: [
        { location: '-1.25,36.75', season: 2020, loss_ratio: 0.4 },
        { location: 'Nakuru Station', season: 2021, loss_ratio: 0.55 },
      ],
      loss_threshold: 0.3,
    });
  });

  it.each([
    ['no source', { sourceId: '  ' }, 'Name the source the locations are read from.'],
    ['no location', { locations: '\n \n' }, 'Give at least one location, one a line.'],
    ['a season that is no year', { from: '19' }, 'The seasons are years, such as 2005 to 2024.'],
    [
      'a threshold without losses',
      { lossThreshold: '0.3' },
      'A loss threshold goes with observed losses: give them, or clear the threshold.',
    ],
    [
      'losses without a threshold',
      { outcomes: '-1.25,36.75 2020 0.4' },
      'Observed losses need the loss threshold above which the index should have paid.',
    ],
    [
      'a loss line missing its ratio',
      { outcomes: '-1.25,36.75 2020 0.4\n-1.40,36.90 2020', lossThreshold: '0.3' },
      'Observed loss 2 (“-1.40,36.90 2020”) is not “location season loss ratio”.',
    ],
  ])('says what is wrong with %s, and asks nothing', (_, change, problem) => {
    expect(backtestRequest(product, { ...form, ...change })).toEqual({ problem });
  });
});

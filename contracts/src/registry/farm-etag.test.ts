import { describe, expect, it } from 'vitest';
import { farmEtag, updatedAtOfFarmEtag } from './farm-etag';

describe('the farm ETag', () => {
  const updated_at = '2026-03-01T10:00:00.123Z';

  it('is the updated_at in epoch ms, quoted', () => expect(farmEtag({ updated_at })).toBe('"1772359200123"'));
  it('names the updated_at it was made from, strong or weak', () => {
    expect(updatedAtOfFarmEtag(farmEtag({ updated_at }))).toBe(updated_at);
    expect(updatedAtOfFarmEtag(`W/${farmEtag({ updated_at })}`)).toBe(updated_at);
  });
  it('names nothing for a value that is not a farm ETag', () => expect(updatedAtOfFarmEtag('"v1"')).toBeUndefined());
});

import type { Farm } from './farm';

// A farm's ETag is its updated_at in epoch ms, so `If-Match` and the body's `updated_at` are one
// precondition. Both APIs answer with it: the command side after a write, the query side on GET.

export const farmEtag = (farm: Pick<Farm, 'updated_at'>): string => `"${Date.parse(farm.updated_at)}"`;

/** The updated_at a farm ETag (weak or strong) stands for; undefined when the value is no farm ETag. */
export const updatedAtOfFarmEtag = (etag: string): string | undefined => {
  const match = /^(?:W\/)?"(\d{1,15})"$/.exec(etag.trim());
  return match?.[1] ? new Date(Number(match[1])).toISOString() : undefined;
};

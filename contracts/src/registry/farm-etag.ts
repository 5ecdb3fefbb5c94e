import { z } from '../zod';
import type { Farm } from './farm';

// A farm's ETag is its updated_at in epoch ms, so `If-Match` and the body's `updated_at` are one
// precondition. Both APIs answer with it: the command side after a write, the query side on GET.

export const farmEtag = (farm: Pick<Farm, 'updated_at'>): string => `"${Date.parse(farm.updated_at)}"`;

/** The updated_at a farm ETag (weak or strong) stands for; undefined when the value is no farm ETag. */
export const updatedAtOfFarmEtag = (etag: string): string | undefined => {
  const match = /^(?:W\/)?"(\d{1,15})"$/.exec(etag.trim());
  return match?.[1] ? new Date(Number(match[1])).toISOString() : undefined;
};

/** Where a farm answer carries its ETag, as the routes that answer with it declare it. */
export const FARM_ETAG_HEADER = { ETag: "The farm's version, for If-Match on a later PUT" } as const;

/** The precondition of a farm update: the ETag of the version the client read (RFC 9110), or `*`. */
export const FarmIfMatchHeader = z.object({
  'If-Match': z
    .string()
    .optional()
    .openapi({ description: "The farm's ETag as last read; another version answers 412 and changes nothing." }),
});

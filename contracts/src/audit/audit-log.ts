import { DateTime } from '../common';
import { queryInteger } from '../insurance/pagination';
import { z } from '../zod';

// The verifiable log's API (SPEC §7 Audit): signed checkpoints and proofs over the RFC 6962 tree of the
// log. Hashes are base64, standard alphabet.

export const Base64Hash = z.string().describe('SHA-256, base64 (standard alphabet)');

export const AuditCheckpoint = z
  .object({
    origin: z.string(),
    size: z.number().int().nonnegative(),
    root: Base64Hash,
    note: z.string().describe('The C2SP signed note: "<origin>\\n<size>\\n<root>\\n", a blank line, signatures'),
  })
  .openapi('AuditCheckpoint');
export type AuditCheckpoint = z.infer<typeof AuditCheckpoint>;

export const CheckpointPathParams = z.strictObject({
  size: queryInteger('must be an integer of at least 1', { min: 1 }),
});

export const AuditKey = z
  .object({
    name: z.string().describe('The key name, which is also the checkpoint origin it signs'),
    key_id: z.string().describe('C2SP key id: 8 hex digits'),
    algorithm: z.literal('ed25519'),
    vkey: z.string().describe('C2SP verifier key: `<name>+<key id hex>+<base64 of 0x01 ‖ public key>`'),
    valid_from: DateTime.describe('When the log first signed with it'),
    valid_to: DateTime.optional().describe('When another key took over; absent while it signs'),
  })
  .openapi('AuditKey');
export type AuditKey = z.infer<typeof AuditKey>;

export const AuditKeyList = z.object({ keys: z.array(AuditKey) }).openapi('AuditKeyList');
export type AuditKeyList = z.infer<typeof AuditKeyList>;

/** At most this many leaves a request: a range of ~350-byte preimages. */
export const MAX_LEAVES_PER_REQUEST = 1_000;

export const AuditLeavesQuery = z.strictObject({
  from: queryInteger('must be an integer of at least 0', { min: 0 }),
  count: queryInteger(`must be an integer from 1 to ${MAX_LEAVES_PER_REQUEST}`, {
    min: 1,
    max: MAX_LEAVES_PER_REQUEST,
  }),
});

export const AuditLeaf = z
  .object({
    leaf_index: z.number().int(),
    leaf_hash: Base64Hash,
    input: z
      .string()
      .nullable()
      .describe(
        "The leaf input: RFC 8785 canonical JSON of the event's envelope (docs/audit-bundle.md); leaf_hash = SHA-256(0x00 ‖ its UTF-8 bytes). Recomputed from the stored bytes while the log holds the event; the envelope the integrator kept when it does not; null only for an event deleted before envelopes were kept",
      ),
    event_missing: z
      .boolean()
      .describe(
        'True when the log no longer holds the event this leaf was taken from (its row was deleted): the tree still commits to it',
      ),
  })
  .openapi('AuditLeaf');
export type AuditLeaf = z.infer<typeof AuditLeaf>;

export const AuditLeafRange = z
  .object({ from: z.number().int(), count: z.number().int(), leaves: z.array(AuditLeaf) })
  .openapi('AuditLeafRange');
export type AuditLeafRange = z.infer<typeof AuditLeafRange>;

export const InclusionProofQuery = z.strictObject({
  index: queryInteger('must be an integer of at least 0', { min: 0 }),
  size: queryInteger('must be an integer of at least 1', { min: 1 }),
});

export const InclusionProof = z
  .object({ leaf_index: z.number().int(), tree_size: z.number().int(), hashes: z.array(Base64Hash) })
  .openapi('InclusionProof');
export type InclusionProof = z.infer<typeof InclusionProof>;

export const ConsistencyProofQuery = z.strictObject({
  from: queryInteger('must be an integer of at least 1', { min: 1 }),
  to: queryInteger('must be an integer of at least 1', { min: 1 }),
});

export const ConsistencyProof = z
  .object({ from_size: z.number().int(), to_size: z.number().int(), hashes: z.array(Base64Hash) })
  .openapi('ConsistencyProof');
export type ConsistencyProof = z.infer<typeof ConsistencyProof>;

export const NO_CHECKPOINT = {
  description: 'No checkpoint has been signed yet, or none of that size',
  codes: ['no_checkpoint'],
} as const;
export const BEYOND_TREE = {
  description: 'A leaf or size the tree does not have (yet), or sizes out of order',
  codes: ['beyond_tree'],
} as const;

import { queryInteger } from '../insurance/pagination';
import { z } from '../zod';

// The verifiable log's API (SPEC §7 Audit): signed checkpoints and proofs over the RFC 6962 tree of the
// log. Hashes are base64, standard alphabet.

const Base64Hash = z.string().describe('SHA-256, base64 (standard alphabet)');

export const AuditCheckpoint = z
  .object({
    origin: z.string(),
    size: z.number().int().nonnegative(),
    root: Base64Hash,
    note: z.string().describe('The C2SP signed note: "<origin>\\n<size>\\n<root>\\n", a blank line, signatures'),
  })
  .openapi('AuditCheckpoint');
export type AuditCheckpoint = z.infer<typeof AuditCheckpoint>;

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

export const NO_CHECKPOINT = { description: 'No checkpoint has been signed yet', codes: ['no_checkpoint'] } as const;
export const BEYOND_TREE = {
  description: 'A leaf or size the tree does not have (yet), or sizes out of order',
  codes: ['beyond_tree'],
} as const;

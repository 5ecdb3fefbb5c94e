/** Who may read the verifiable log's checkpoints and proofs (SPEC §7 Audit); admin always may. Leaves and
 *  proofs are content-free hashes, so any auditor or insurer may check the whole log. */
export const AUDIT_READERS = ['auditor', 'insurer'] as const;

export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

import { AuditKeyList } from '@cropcover/contracts';
import { loadSigningKeys } from '@cropcover/read-store';
import { queryRoute } from '../../query-route';
import { isoTimestamp } from '../../timestamps';
import { AUDIT_READERS } from '../audit-readers';

/** Every key the log's checkpoints were signed with and when, rotations included (SPEC §7 Audit). */
export const listAuditKeys = queryRoute('GET /audit/keys', {
  summary: "The keys that sign the log's checkpoints, with their validity",
  roles: AUDIT_READERS,
  success: { status: 200, schema: AuditKeyList, description: 'The verifying keys, oldest first' },
}).handle(async ({ deps }) => ({
  keys: (await loadSigningKeys(deps.db)).map((key) => ({
    name: key.name,
    key_id: key.keyId,
    algorithm: 'ed25519' as const,
    vkey: key.vkey,
    valid_from: isoTimestamp(key.validFrom),
    ...(key.validTo ? { valid_to: isoTimestamp(key.validTo) } : {}),
  })),
}));

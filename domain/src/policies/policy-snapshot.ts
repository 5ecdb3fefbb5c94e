import { createHash } from 'node:crypto';
import type { Policy } from './policy';

/** The shape of `Policy` a snapshot holds. Bump it with any change to `Policy` or `evolvePolicy`: every
 *  snapshot of an older version is then ignored and rebuilt from the log. The fingerprint test in
 *  policy-snapshot.test.ts fails when the state a fixed history replays to changes without a bump. */
export const POLICY_STATE_VERSION = 5;

/** A policy's state as of one revision of its stream, stored as text with its digest. A cache of the
 *  log: whatever is wrong with it, the stream is read whole instead. */
export interface PolicySnapshot {
  readonly stateVersion: number;
  readonly state: string;
  /** `sha256:` + hex of `state`: a snapshot damaged at rest is not believed. */
  readonly digest: string;
}

const digestOf = (state: string): string => `sha256:${createHash('sha256').update(state).digest('hex')}`;

export const policySnapshotOf = (state: Policy): PolicySnapshot => {
  const text = JSON.stringify(state);
  return { stateVersion: POLICY_STATE_VERSION, state: text, digest: digestOf(text) };
};

/** The state a snapshot holds; undefined when it is of another version or does not match its digest, and
 *  the caller replays the whole stream. */
export const policyFromSnapshot = (snapshot: PolicySnapshot): Policy | undefined => {
  if (snapshot.stateVersion !== POLICY_STATE_VERSION || digestOf(snapshot.state) !== snapshot.digest) return undefined;
  return JSON.parse(snapshot.state) as Policy;
};

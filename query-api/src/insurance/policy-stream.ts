/** The log stream of one policy, as the command side appends it. */
export const policyStream = (policyId: string): string => `policy-${policyId}`;

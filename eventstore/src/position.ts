import type { AllStreamStart, GlobalPosition } from './port';

export const comparePositions = (a: GlobalPosition, b: GlobalPosition): number =>
  a.commit !== b.commit ? (a.commit < b.commit ? -1 : 1) : a.prepare === b.prepare ? 0 : a.prepare < b.prepare ? -1 : 1;

export const isAtOrAfter = (position: GlobalPosition | AllStreamStart, target: GlobalPosition): boolean =>
  position !== 'start' && comparePositions(position, target) >= 0;

/** The `Consistency-Token` header form of a position: `<commit>.<prepare>`. */
export const formatPosition = (p: GlobalPosition): string => `${p.commit}.${p.prepare}`;

export const parsePosition = (token: string): GlobalPosition | undefined => {
  const match = /^(\d{1,20})\.(\d{1,20})$/.exec(token.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
};

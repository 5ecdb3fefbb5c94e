import type { Answer, Told } from './insurance-workload';

// What a scenario's row in docs/reliability.md says, from the answers the workload's clients noted:
// how each request that overlapped the fault ended, and how soon writes were acknowledged again.

export interface FaultWindow {
  readonly from: number;
  readonly to: number;
}

const isWrite = (answer: Answer) => answer.what.startsWith('POST');
const overlaps = (answer: Answer, window: FaultWindow) =>
  answer.startedAt <= window.to && answer.startedAt + answer.ms >= window.from;

export const faultReport = (told: Told, window: FaultWindow) => {
  const during = told.answers.filter((answer) => overlaps(answer, window));
  const failed = during.filter(
    (answer) => answer.status !== 'lost' && typeof answer.status === 'number' && answer.status >= 500,
  );
  const firstWriteAfter = told.answers
    .filter(
      (answer) =>
        isWrite(answer) && answer.startedAt >= window.to && typeof answer.status === 'number' && answer.status < 300,
    )
    .map((answer) => answer.startedAt + answer.ms)
    .sort((a, b) => a - b)[0];
  return {
    requests: during.length,
    acknowledgedWrites: told.answers.filter(
      (answer) => isWrite(answer) && typeof answer.status === 'number' && answer.status < 300,
    ).length,
    /** Answers of 5xx during the fault, by status and code. */
    refused: Object.fromEntries(
      Object.entries(
        failed.reduce<Record<string, number>>((counts, answer) => {
          const key = `${answer.status} ${answer.code ?? '-'}${answer.retryAfter ? ` Retry-After ${answer.retryAfter}` : ''}`;
          counts[key] = (counts[key] ?? 0) + 1;
          return counts;
        }, {}),
      ),
    ),
    /** 5xx answers without Retry-After, or other than 503: SPEC §10 wants a 503 a client can retry. */
    notRetryable: failed
      .filter((answer) => answer.status !== 503 || answer.retryAfter === null)
      .map((answer) => `${answer.what} ${answer.status} ${answer.code}`),
    lostConnections: during.filter((answer) => answer.status === 'lost').length,
    stalled: told.answers.filter((answer) => answer.status === 'stalled').map((answer) => answer.what),
    slowestMs: Math.round(Math.max(0, ...during.map((answer) => answer.ms))),
    /** The longest a request waited to be refused: SPEC §10 bounds it (5 s by default). */
    slowestRefusalMs: Math.round(Math.max(0, ...failed.map((answer) => answer.ms))),
    slowest: [...during]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((answer) => `${answer.what} ${answer.status} ${Math.round(answer.ms)} ms`),
    /** From the fault's end to the first write acknowledged that was sent after it. */
    recoveredAfterMs: firstWriteAfter === undefined ? undefined : Math.round(firstWriteAfter - window.to),
  };
};

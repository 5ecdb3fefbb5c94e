// Commands on one stream in one process take turns. Across processes the optimistic check on append
// still decides who wins; within one, taking turns means a burst of commands on one stream (fifty
// evaluations of one policy at once) each decides on the state the previous one left, instead of most of
// them losing the race, retrying, and some giving up with a 409.

const tails = new Map<string, Promise<void>>();

/** Runs `work` once every earlier work on `streamId` in this process has finished, whatever its outcome. */
export const inStreamTurn = async <Result>(streamId: string, work: () => Promise<Result>): Promise<Result> => {
  const previous = tails.get(streamId) ?? Promise.resolve();
  let finished!: () => void;
  const mine = new Promise<void>((resolve) => {
    finished = resolve;
  });
  tails.set(streamId, mine);
  await previous;
  try {
    return await work();
  } finally {
    finished();
    if (tails.get(streamId) === mine) tails.delete(streamId);
  }
};

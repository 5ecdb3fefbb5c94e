import type pg from 'pg';

/** Ends the pool and resolves once every connection has closed. `pool.end()` resolves as soon as the
 *  connections were asked to close; dropping their database right then terminates them mid-goodbye, and
 *  the pool re-emits that as an 'error' nobody listens to any more. */
export const endPool = async (pool: pg.Pool): Promise<void> => {
  let open = pool.totalCount;
  const allClosed = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on('remove', () => {
      open -= 1;
      if (open === 0) resolve();
    });
  });
  await pool.end();
  await allClosed;
};

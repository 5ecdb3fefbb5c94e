import type { FarmerKeyErasureListener, FarmerKeyErasureWatcher } from '@cropcover/read-store';
import type { FarmerKeys } from './farmer-keys';

// Farmers' data keys kept per process, so a sealed append or a read batch costs no `farmer_keys` query
// once the farmer's key was seen (why and what it guarantees, in docs/decisions.md "Erasure by
// crypto-shredding"). Correct under erasure because:
// - an erasure destroys the key and announces it (NOTIFY) in one transaction, before `FarmerErased` is
//   appended; on the announcement the entry becomes "erased" for good (an erased key never comes back);
// - keys are cached only while the LISTEN connection is up: when it fails the cache is emptied and stays
//   unused until LISTEN is back, so no erasure can pass unheard;
// - a lookup that was under way while an erasure or a reconnect was heard stores nothing: it may have read
//   the key just before it was destroyed.

/** Enough for the farmers active at once in one process; the least recently used is dropped beyond it. */
const MAX_ENTRIES = 100_000;

type Entry = Buffer | 'erased';

export type ListenToErasures = (watcher: FarmerKeyErasureWatcher) => FarmerKeyErasureListener;

export const cachedFarmerKeys = (keys: FarmerKeys, listen: ListenToErasures): FarmerKeys => {
  const entries = new Map<string, Entry>();
  let listening = false;
  // Moves on every erasure heard and every change of the listener: a lookup stores its answer only if it
  // has not moved since the lookup began.
  let heard = 0;

  const remember = (farmerId: string, entry: Entry, heardBefore: number): void => {
    if (!listening || heard !== heardBefore) return;
    entries.delete(farmerId);
    entries.set(farmerId, entry);
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  };
  const recall = (farmerId: string): Entry | undefined => {
    const entry = entries.get(farmerId);
    if (entry === undefined) return undefined;
    entries.delete(farmerId);
    entries.set(farmerId, entry);
    return entry;
  };

  const listener = listen({
    onErased: (farmerId) => {
      heard += 1;
      entries.delete(farmerId);
      if (listening) entries.set(farmerId, 'erased');
    },
    onListening: (now) => {
      heard += 1;
      listening = now;
      if (!now) entries.clear();
    },
  });

  return {
    async keyToSeal(farmerId) {
      const entry = recall(farmerId);
      if (entry !== undefined) return entry === 'erased' ? undefined : entry;
      const heardBefore = heard;
      const key = await keys.keyToSeal(farmerId);
      remember(farmerId, key ?? 'erased', heardBefore);
      return key;
    },
    async keysToOpen(farmerIds) {
      const found = new Map<string, Buffer>();
      const missing: string[] = [];
      for (const farmerId of farmerIds) {
        const entry = recall(farmerId);
        if (entry === undefined) missing.push(farmerId);
        else if (entry !== 'erased') found.set(farmerId, entry);
      }
      if (missing.length === 0) return found;
      const heardBefore = heard;
      // A farmer missing from the answer has no live key; that is not remembered (it is rare, and a farmer
      // with no row yet may still get one).
      for (const [farmerId, key] of await keys.keysToOpen(missing)) {
        found.set(farmerId, key);
        remember(farmerId, key, heardBefore);
      }
      return found;
    },
    async erase(farmerId, now) {
      await keys.erase(farmerId, now);
      heard += 1;
      entries.delete(farmerId);
      if (listening) entries.set(farmerId, 'erased');
    },
    close: async () => {
      await listener.close();
      await keys.close();
    },
  };
};

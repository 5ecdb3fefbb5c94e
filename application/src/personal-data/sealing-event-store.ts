import type { EventStore, NewEvent, RecordedEvent } from '@cropcover/eventstore';
import type { FarmerKeys } from './farmer-keys';
import { openValue, sealedBy, sealValue } from './field-seal';
import { PERSONAL_FIELDS, type PersonalField } from './personal-fields';

// The one place personal data is sealed and opened (SPEC §6 erasure): an event store whose appends seal
// the personal fields of the events PERSONAL_FIELDS lists with the farmer's key, and whose reads open
// them, or show them erased once the key is gone. The log, its audit hashes and the Kafka topics (the
// publisher reads the store beneath) only ever hold the sealed text.

type Data = Readonly<Record<string, unknown>>;

const valueAt = (data: Data, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Data)[key] : undefined),
    data,
  );

/** A copy of `data` with the value at `path` replaced; `data` itself is never changed. */
const withValueAt = (data: Data, path: readonly string[], value: unknown): Data => {
  const [key, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...data, [key]: value };
  const inner = data[key];
  if (inner === null || typeof inner !== 'object') return data;
  return { ...data, [key]: withValueAt(inner as Data, rest, value) };
};

const hasValue = (data: Data, field: PersonalField): boolean => typeof valueAt(data, field.path) === 'string';

const sealEvent = async (event: NewEvent, keys: FarmerKeys): Promise<NewEvent> => {
  const personal = PERSONAL_FIELDS[event.type];
  if (!personal) return event;
  let data = event.data as Data;
  const farmerId = personal.farmerIdOf(data);
  const present = personal.fields.filter((field) => hasValue(data, field));
  if (farmerId === undefined || present.length === 0) return event;
  const key = await keys.keyToSeal(farmerId);
  for (const field of present) {
    const value = valueAt(data, field.path) as string;
    // An erased farmer's data is never written again, sealed or not.
    data = withValueAt(data, field.path, key ? sealValue(value, farmerId, field.path, key) : field.erased);
  }
  return { ...event, data };
};

const sealedFarmers = (events: readonly RecordedEvent[]): string[] => {
  const farmers = new Set<string>();
  for (const event of events) {
    const personal = PERSONAL_FIELDS[event.type];
    if (!personal) continue;
    for (const field of personal.fields) {
      const farmerId = sealedBy(valueAt(event.data as Data, field.path));
      if (farmerId !== undefined) farmers.add(farmerId);
    }
  }
  return [...farmers];
};

const openEvent = (event: RecordedEvent, keys: ReadonlyMap<string, Buffer>): RecordedEvent => {
  const personal = PERSONAL_FIELDS[event.type];
  if (!personal) return event;
  let data = event.data as Data;
  for (const field of personal.fields) {
    const value = valueAt(data, field.path);
    const farmerId = sealedBy(value);
    if (farmerId === undefined) continue;
    const key = keys.get(farmerId);
    data = withValueAt(data, field.path, key ? openValue(value as string, field.path, key) : field.erased);
  }
  return data === event.data ? event : { ...event, data };
};

export const openEvents = async (events: readonly RecordedEvent[], keys: FarmerKeys): Promise<RecordedEvent[]> => {
  const farmers = sealedFarmers(events);
  if (farmers.length === 0) return [...events];
  const opened = await keys.keysToOpen(farmers);
  return events.map((event) => openEvent(event, opened));
};

export const sealEvents = (events: readonly NewEvent[], keys: FarmerKeys): Promise<NewEvent[]> =>
  Promise.all(events.map((event) => sealEvent(event, keys)));

/** `store` with the personal fields of its events sealed on append and opened on every read. */
export const withSealedPersonalData = (store: EventStore, keys: FarmerKeys): EventStore => ({
  ...store,
  append: async (streamId, events, expected) => store.append(streamId, await sealEvents(events, keys), expected),
  appendToStreams: async (appends) =>
    store.appendToStreams(
      await Promise.all(appends.map(async (append) => ({ ...append, events: await sealEvents(append.events, keys) }))),
    ),
  readStream: async (streamId, options) => openEvents(await store.readStream(streamId, options), keys),
  readAll: async (after, limit) => openEvents(await store.readAll(after, limit), keys),
  subscribeToAll: (after, handler, options) =>
    store.subscribeToAll(after, async (batch) => handler(await openEvents(batch, keys)), options),
  close: async () => {
    await keys.close();
    await store.close();
  },
});

import type { KeyObject } from 'node:crypto';
import type { EventStore, NewEvent, RecordedEvent } from '@cropcover/eventstore';
import type { FarmerKeys } from './farmer-keys';
import { isSealedAlone, openValue, openValues, sealedBy, sealValues } from './field-seal';
import { PERSONAL_FIELDS, type PersonalField } from './personal-fields';

// The one place personal data is sealed and opened (SPEC §6 erasure): an event store whose appends seal
// the personal fields of the events PERSONAL_FIELDS lists with the farmer's key, and whose reads open
// them, or show them erased once the key is gone. The log, its audit hashes and the Kafka topics (the
// publisher reads the store beneath) only ever hold the sealed text.

type Data = Readonly<Record<string, unknown>>;

const valueAt = (data: Data, path: readonly string[]): unknown => {
  let node: unknown = data;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Data)[key] : undefined;
  return node;
};

/** A copy of `data` with `values` at the paths of `fields`, each object on the way copied once; `data`
 *  itself is never changed. Every path leads to a value `data` holds. */
const withValuesAt = (data: Data, fields: readonly PersonalField[], values: readonly unknown[]): Data => {
  const copies: object[] = [];
  const root: Record<string, unknown> = { ...data };
  fields.forEach(({ path }, index) => {
    let node = root;
    for (let depth = 0; depth < path.length - 1; depth += 1) {
      const inner = node[path[depth]!] as Record<string, unknown>;
      const copy = copies.includes(inner) ? inner : { ...inner };
      if (copy !== inner) copies.push(copy);
      node[path[depth]!] = copy;
      node = copy;
    }
    node[path.at(-1)!] = values[index];
  });
  return root;
};

const sealEvent = async (event: NewEvent, keys: FarmerKeys): Promise<NewEvent> => {
  const personal = PERSONAL_FIELDS[event.type];
  if (!personal) return event;
  const data = event.data as Data;
  const farmerId = personal.farmerIdOf(data);
  const present = personal.fields.filter((field) => typeof valueAt(data, field.path) === 'string');
  if (farmerId === undefined || present.length === 0) return event;
  const key = await keys.keyToSeal(farmerId);
  // An erased farmer's data is never written again, sealed or not.
  const values = key
    ? sealValues(
        present.map((field) => valueAt(data, field.path) as string),
        present.map((field) => field.name),
        farmerId,
        event.type,
        key,
      )
    : present.map((field) => field.erased);
  return { ...event, data: withValuesAt(data, present, values) };
};

/** An event's sealed personal values: their fields, texts and the farmers who sealed them. */
interface Sealed {
  readonly fields: PersonalField[];
  readonly texts: string[];
  readonly farmerIds: string[];
}

const NOTHING_SEALED: Sealed = { fields: [], texts: [], farmerIds: [] };

const sealedIn = (event: RecordedEvent): Sealed => {
  const personal = PERSONAL_FIELDS[event.type];
  if (!personal) return NOTHING_SEALED;
  let sealed = NOTHING_SEALED;
  for (const field of personal.fields) {
    const text = valueAt(event.data as Data, field.path);
    const farmerId = sealedBy(text);
    if (farmerId === undefined) continue;
    if (sealed === NOTHING_SEALED) sealed = { fields: [], texts: [], farmerIds: [] };
    sealed.fields.push(field);
    sealed.texts.push(text as string);
    sealed.farmerIds.push(farmerId);
  }
  return sealed;
};

const openEvent = (event: RecordedEvent, sealed: Sealed, keys: ReadonlyMap<string, KeyObject>): RecordedEvent => {
  const { fields, texts, farmerIds } = sealed;
  if (fields.length === 0) return event;
  const values: unknown[] = fields.map((field) => field.erased);
  // v1: sealed alone; v2: the event's values sealed together, by one farmer.
  const together: number[] = [];
  for (let index = 0; index < texts.length; index += 1) {
    if (!isSealedAlone(texts[index]!)) together.push(index);
    else {
      const key = keys.get(farmerIds[index]!);
      if (key) values[index] = openValue(texts[index]!, fields[index]!.name, key);
    }
  }
  const farmerId = farmerIds[together[0]!];
  if (farmerId !== undefined) {
    if (together.some((index) => farmerIds[index] !== farmerId))
      throw new Error(`${event.type} holds personal values sealed by more than one farmer`);
    const key = keys.get(farmerId);
    const opened = key
      ? openValues(
          together.map((index) => texts[index]!),
          together.map((index) => fields[index]!.name),
          farmerId,
          event.type,
          key,
        )
      : [];
    for (let at = 0; at < opened.length; at += 1) values[together[at]!] = opened[at];
  }
  return { ...event, data: withValuesAt(event.data as Data, fields, values) };
};

export const openEvents = async (events: readonly RecordedEvent[], keys: FarmerKeys): Promise<RecordedEvent[]> => {
  const sealed = events.map(sealedIn);
  const farmers = new Set<string>();
  for (const values of sealed) for (const farmerId of values.farmerIds) farmers.add(farmerId);
  if (farmers.size === 0) return [...events];
  const opened = await keys.keysToOpen([...farmers]);
  return events.map((event, index) => openEvent(event, sealed[index]!, opened));
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

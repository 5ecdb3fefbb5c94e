import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { ProblemError } from '@cropcover/runtime';

// INDEX-DATA.md §2.2: every ingested file is kept, content-addressed, so a location that becomes of
// interest later is read from the files already held. The file is kept as the producer made it once
// decoded from its transfer encoding (a CHIRPS .tif.gz is kept as the .tif it holds): readers need random
// access into it, and the same raster sent gzipped and plain is one file. Only a file an ingestion took
// in is kept: until it ends, an ingestion reads a copy of its own, removed when it is refused or fails
// (bad input writes nothing), so no other ingestion of the same bytes ever depends on it.

export interface StoredIndexFile {
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
  /** Where the bytes lie now: received, held for an ingestion, or kept. */
  readonly path: string;
  readonly bytes: number;
}

/** `<directory>/<sha256>`: where a file is kept. */
export const indexFilePath = (directory: string, sha256: string): string => join(directory, sha256);

/** `<directory>/.ingestion-<id>`: the file an ingestion reads until it ends (and a resumed one again). */
export const ingestionFilePath = (directory: string, ingestionId: string): string =>
  join(directory, `.ingestion-${ingestionId}`);

/** Holds a received file for its ingestion, under the ingestion's own name. */
export const holdForIngestion = async (file: StoredIndexFile, ingestionId: string): Promise<StoredIndexFile> => {
  const path = ingestionFilePath(dirname(file.path), ingestionId);
  await rename(file.path, path);
  return { ...file, path };
};

/** Keeps the file of an ingestion that took it in under its SHA-256 (the same bytes kept before stay as
 *  they are); its held copy is the caller's to discard once the ingestion is recorded. */
export const keepIngestedFile = async (file: StoredIndexFile): Promise<void> => {
  await link(file.path, indexFilePath(dirname(file.path), file.sha256)).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  });
};

/** Removes a received or held file no ingestion will read: refused, failed, or taken in before. */
export const discardIndexFile = (file: StoredIndexFile): Promise<void> => rm(file.path, { force: true });

/** Seconds a client is asked to wait after a full disk: space returns when an operator makes it. */
const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

/** SPEC §10: the file store on a full disk says so, as a 503 a client may retry; nothing was kept. */
const storageFull = (error: unknown): unknown => {
  const code = (error as { code?: unknown }).code;
  return code === 'ENOSPC' || code === 'EDQUOT'
    ? ProblemError.serviceUnavailable(
        'storage_full',
        'The disk index files are kept on is full; nothing was kept or recorded. Try again after Retry-After seconds.',
        STORAGE_FULL_RETRY_AFTER_SECONDS,
      )
    : error;
};

const tooLarge = (limitBytes: number): ProblemError =>
  ProblemError.payloadTooLarge(`An index file may have at most ${limitBytes / 1024 ** 2} MiB.`);

/** Counts and hashes the bytes going by, and stops the stream past the limit. */
const measured = (limitBytes: number, hash: ReturnType<typeof createHash>, counted: { bytes: number }): Transform =>
  new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counted.bytes += chunk.length;
      if (counted.bytes > limitBytes) return done(tooLarge(limitBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });

/**
 * Streams a file to disk in `directory`, never whole in memory, hashing it on the way: received, not yet
 * kept (`ingestIndexFile` keeps or discards it). More than `limitBytes` (after decompression) is a 413; a
 * broken gzip stream a 422; a full disk a 503 `storage_full`, the part written removed.
 */
export const storeIndexFile = (
  body: Readable,
  directory: string,
  options: { readonly gzip: boolean; readonly limitBytes: number },
): Promise<StoredIndexFile> =>
  receiveIndexFile(body, directory, options).catch((error: unknown) => {
    throw storageFull(error);
  });

const receiveIndexFile = async (
  body: Readable,
  directory: string,
  { gzip, limitBytes }: { readonly gzip: boolean; readonly limitBytes: number },
): Promise<StoredIndexFile> => {
  await mkdir(directory, { recursive: true });
  const incoming = join(directory, `.incoming-${randomUUID()}`);
  const hash = createHash('sha256');
  const counted = { bytes: 0 };
  try {
    const file = createWriteStream(incoming);
    const measure = measured(limitBytes, hash, counted);
    await (gzip ? pipeline(body, createGunzip(), measure, file) : pipeline(body, measure, file));
  } catch (error) {
    await rm(incoming, { force: true });
    if (error instanceof ProblemError) throw error;
    if (gzip && (error as { code?: string }).code?.startsWith('Z_'))
      throw ProblemError.unprocessable(
        'unreadable_file',
        `The gzip-encoded body is not valid gzip: ${(error as Error).message}.`,
      );
    throw error;
  }
  return { sha256: hash.digest('hex'), path: incoming, bytes: counted.bytes };
};

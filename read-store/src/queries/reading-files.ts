import type { ReadingFile } from '@cropcover/domain';

/** The files of readings as `IndexObservation.files` holds them, from a row's `file_sha256` and `label`
 *  (INDEX-DATA §4): undefined for a posted reading (no file), else one list per file and label, which
 *  every reading from that file shares rather than a list each. */
export const readingFilesOfRows = (): ((
  sha256: string | null,
  label: string | null,
) => readonly ReadingFile[] | undefined) => {
  const lists = new Map<string, readonly ReadingFile[]>();
  return (sha256, label) => {
    if (!sha256) return undefined;
    const key = `${sha256},${label ?? ''}`;
    let files = lists.get(key);
    if (files === undefined) {
      files = [{ sha256, label: label || null }];
      lists.set(key, files);
    }
    return files;
  };
};

import { StoreError } from './store';

/**
 * The refusals every backend gives a watch from a revision out of reach, worded alike: the
 * API server answers Compacted with 410 Gone ("too old resource version") and FutureRevision
 * with a timeout ("Too large resource version").
 */

/** A watch (or a read) from before the compaction. */
export function compactedError(prefix: string, after: number, compacted: number): StoreError {
  return new StoreError(
    'Compacted',
    prefix,
    `required revision ${after} has been compacted (oldest available ${compacted})`,
    compacted,
  );
}

/** A watch from after the newest revision. */
export function futureRevisionError(prefix: string, after: number, current: number): StoreError {
  return new StoreError(
    'FutureRevision',
    prefix,
    `required revision ${after} is a future revision (current ${current})`,
    current,
  );
}

/** Where a watch of a backend that knows its newest revision may start: after the compaction, not past the newest. */
export function checkWatchStart(prefix: string, after: number, compacted: number, current: number): void {
  if (after < compacted) throw compactedError(prefix, after, compacted);
  if (after > current) throw futureRevisionError(prefix, after, current);
}

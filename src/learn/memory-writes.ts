// The writes of the memory of past requests: appending to the lanes' pages, and deleting a scope's heads and pages.
import type { GuardedShared } from '../core/shared-guard.ts';
import {
  appendToPage,
  MAX_LANES,
  memoryHeadKey,
  memoryPageKey,
  newTag,
  type pageLayout,
  type Remembered,
  readMemoryHead,
} from './memory-pages.ts';
import type { SpaceAccess } from './space-cache.ts';

type Warn = (message: string) => void;

/** Appends requests to the page a random lane is filling, the rest to the next lanes' as pages fill. */
export async function appendRequests(
  scope: string,
  { pageBytes, lanes, pagesPerLane }: ReturnType<typeof pageLayout>,
  { shared, read, keep }: SpaceAccess,
  requests: readonly Remembered[],
  warn: Warn,
): Promise<void> {
  let left = requests;
  // A write starts at a lane picked at random, so that no key takes every write (KV takes one a second), and
  // each page it fills sends the rest to the next lane: a large batch (a busy moment, a bulk import) spreads
  // over the lanes evenly and is kept whole, the bound dropping the oldest pages. It gives up only once several
  // pages in a row took nothing.
  let lane = Math.floor(Math.random() * lanes);
  for (let idle = 0; left.length > 0 && idle < 8; lane = (lane + 1) % lanes) {
    const headName = memoryHeadKey(scope, lane);
    const head = readMemoryHead(await read(headName, warn));
    const n = head.last;
    let rest: Remembered[] = [];
    const key = memoryPageKey(scope, lane, n);
    // The change holds its own batch: a store may replay it after this loop moved on (KV writes under waitUntil).
    const batch = left;
    const page = await shared.update(
      key,
      (current) => {
        const appended = appendToPage(current, batch, pageBytes);
        rest = appended.left;
        return appended.added > 0 ? appended.page : current;
      },
      warn,
    );
    keep(key, page);
    idle = rest.length < left.length ? 0 : idle + 1;
    left = rest;
    if (left.length === 0) break;
    // The page is full: the lane starts its next page, dropping its oldest when it has too many.
    const next = readMemoryHead(
      await shared.update(
        headName,
        (current) => {
          const now = readMemoryHead(current);
          if (now.last > n) return now;
          // A head written anew (first write, or after a clear deleted it) starts a new run of the lane.
          const f = typeof now.f === 'string' ? now.f : newTag();
          return { v: now.v, first: Math.max(now.first, n + 2 - pagesPerLane), last: n + 1, f };
        },
        warn,
      ),
    );
    keep(headName, next);
    const gone = Array.from({ length: Math.max(0, next.first - head.first) }, (_, k) => head.first + k);
    await Promise.all(gone.map((k) => shared.delete(memoryPageKey(scope, lane, k))));
  }
}

/** Deletes a scope's memory heads and pages, on every lane a layout may have used. */
export async function forgetRequests(shared: GuardedShared, which: string): Promise<void> {
  // Every lane: another layer of the scope may have a larger byte bound.
  const heads = await Promise.all(
    Array.from({ length: MAX_LANES }, async (_, lane) => ({
      lane,
      ...readMemoryHead(await shared.get(memoryHeadKey(which, lane), () => {})),
    })),
  );
  await Promise.all(
    heads.flatMap(({ lane, first, last }) => [
      shared.delete(memoryHeadKey(which, lane)),
      ...Array.from({ length: last - first + 1 }, (_, k) => shared.delete(memoryPageKey(which, lane, first + k))),
    ]),
  );
}

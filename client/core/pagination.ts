/**
 * Page-numbered listings as an `AsyncIterable` of items, de-duplicated by id (the first kept). No
 * page size is ever assumed: the spec gives none (§4.7, §4.10).
 * - **Counted** (§4.7, §4.9 report `pages` and `total`): pages 1..`pages`, then on as uncounted
 *   while fewer distinct items than `total` have arrived. A `pages` above the cap fails at once.
 * - **Uncounted** (§4.10): pages 1, 2, ... until one is empty or adds no item not seen before (a
 *   server answering past the end with its last page again). A short page is not an end.
 * Concurrent reads (`collect()`) judge pages in page order and discard those past the end.
 */
import { CdnstreamError } from "./errors";

/** One fetched page, with the page count and the listing's item count where the API reports them. */
export interface PageResult<T> {
  items: T[];
  pages?: number;
  total?: number;
}

/** Options of a {@link Paginator}. */
export interface PaginatorOptions<T> {
  /** What is listed, for messages: `HTTP pull zones (§4.10 GET /v2/zones/http/pull)`. */
  listing?: string;
  /** An item's identity, to tell a repeated page; default: the item's JSON. */
  idOf?: (item: T) => unknown;
  /** Pages fetched at once by `collect()` while the end is unknown. Default 4. */
  batch?: number;
  /** Pages read at most before failing (a server ignoring `page` would never end). Default 10000. */
  maxPages?: number;
}

/** Everything a listing returned. */
export interface Listing<T> {
  /** Every distinct item, in page order. */
  items: T[];
  /** The API's `total` from page 1, when it reports one (the count when reading began). */
  total?: number;
  /** Pages requested, including any fetched past the end. */
  requests: number;
}

/** A listing had not ended at the cap of pages: thrown rather than return part of it; the message says what to do. */
export class PaginationLimitError extends CdnstreamError {
  override name = "PaginationLimitError";
}

/** Items of a page-numbered listing; pages start at 1. */
export class Paginator<T> implements AsyncIterable<T> {
  readonly #fetch: (page: number) => Promise<PageResult<T>>;
  readonly #listing: string;
  readonly #idOf: (item: T) => unknown;
  readonly #batch: number;
  readonly #maxPages: number;

  constructor(fetchPage: (page: number) => Promise<PageResult<T>>, options: PaginatorOptions<T> = {}) {
    this.#fetch = fetchPage;
    this.#listing = options.listing ?? "listing";
    this.#idOf = options.idOf ?? ((item) => JSON.stringify(item));
    this.#batch = Math.max(1, Math.floor(options.batch ?? 4));
    this.#maxPages = Math.max(1, Math.floor(options.maxPages ?? 10_000));
  }

  /** The new items of each page, in order, fetched one page at a time. */
  pages(): AsyncGenerator<T[]> {
    return this.#walk(false, { requests: 0 });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const items of this.pages()) yield* items;
  }

  /** Every item, with the API's `total`; pages fetched concurrently where the count is known, in batches where not. */
  async collect(): Promise<Listing<T>> {
    const stats: { requests: number; total?: number } = { requests: 0 };
    const items: T[] = [];
    for await (const fresh of this.#walk(true, stats)) items.push(...fresh);
    return { items, total: stats.total, requests: stats.requests };
  }

  async all(): Promise<T[]> {
    return (await this.collect()).items;
  }

  async *#walk(concurrent: boolean, stats: { requests: number; total?: number }): AsyncGenerator<T[]> {
    const seen = new Set<string>();
    const fresh = (items: T[]) =>
      items.filter((item) => {
        const key = keyOf(this.#idOf(item));
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    const fetch = (page: number) => {
      stats.requests++;
      return this.#fetch(page);
    };

    const first = await fetch(1);
    const total = count(first.total);
    stats.total = total;
    const reached = () => total !== undefined && seen.size >= total;
    const firstItems = fresh(first.items);
    if (firstItems.length > 0) yield firstItems;
    if (first.items.length === 0) return;

    let next = 2;
    const planned = count(first.pages);
    if (planned !== undefined && planned >= 2) {
      if (planned > this.#maxPages) throw this.#limit(`the API reports ${planned} pages`, "");
      // An empty page inside the count is just empty; the client's concurrency cap still applies.
      const pending = concurrent ? settleLater(range(2, planned).map(fetch)) : [];
      for (let page = 2; page <= planned; page++) {
        const result = concurrent ? await pending[page - 2]! : await fetch(page);
        const items = fresh(result.items);
        if (items.length > 0) yield items;
      }
      next = planned + 1;
    }
    // Counted without a total, or complete: done. Otherwise read on until the end shows.
    if ((planned !== undefined && total === undefined) || reached()) return;

    // Page maxPages + 1 may still be read, to see the end of a listing of exactly maxPages pages.
    const lastReadable = this.#maxPages + 1;
    for (;;) {
      if (next > lastReadable)
        throw this.#limit(
          `page ${lastReadable} still brought items not seen before`,
          "The API may be ignoring the page number, or the listing is larger than the cap: ",
        );
      const size = concurrent ? Math.min(this.#batch, lastReadable - next + 1) : 1;
      const batch = settleLater(range(next, next + size - 1).map(fetch));
      for (const pending of batch) {
        const result = await pending;
        const items = fresh(result.items);
        if (items.length === 0) return; // past the end
        yield items;
        if (reached()) return;
      }
      next += size;
    }
  }

  #limit(why: string, cause: string): PaginationLimitError {
    const fix = "read it one page at a time with the `page` argument, or narrow its filters";
    return new PaginationLimitError(
      `${this.#listing}: stopped at the cap of ${this.#maxPages} pages (${why}) rather than return part of the list. ` +
        `${cause ? cause + fix : fix[0]!.toUpperCase() + fix.slice(1)}.`,
    );
  }
}

/** A non-negative integer count from the API (already parsed from numeric strings), or undefined. */
function count(value: number | undefined): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Ids compare as strings: `201` and `"201"` are one item. */
function keyOf(id: unknown): string {
  return typeof id === "string" ? id : typeof id === "number" ? String(id) : JSON.stringify(id);
}

/** Marks prefetched pages as handled: one judged past the end, or after a failure, may reject unobserved. */
function settleLater<P extends Promise<unknown>>(pending: P[]): P[] {
  for (const p of pending) p.catch(() => undefined);
  return pending;
}

function range(from: number, to: number): number[] {
  return to < from ? [] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

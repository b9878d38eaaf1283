/**
 * Page-numbered listings as an `AsyncIterable` of items (openai-node `src/core/pagination.ts`):
 * `for await (const item of paginator)` walks pages one by one; `all()` gets everything as fast
 * as the client's concurrency cap allows.
 *
 * Two ways a listing ends:
 * - it reports `pages` (§4.7, §4.9): pages 1..pages;
 * - it does not (§4.10): a page shorter than `pageSize` or empty is the last (DESIGN.md: 20 per
 *   page, a page past the end is an empty list).
 */
import { CdnstreamError } from "./errors";

/** One fetched page. */
export interface PageResult<T> {
  items: T[];
  /** Page count, when the API reports it. */
  pages?: number;
}

/** Options of a {@link Paginator}. */
export interface PaginatorOptions {
  /** Full-page size for listings without a page count; a shorter page is the last. */
  pageSize?: number;
  /** Pages fetched at once by `all()` when the page count is unknown. Default 4. */
  batch?: number;
  /** Guard against a listing that never ends (an API ignoring `page`). Default 10000. */
  maxPages?: number;
}

/** Items of a page-numbered listing; pages start at 1. */
export class Paginator<T> implements AsyncIterable<T> {
  readonly #fetch: (page: number) => Promise<PageResult<T>>;
  readonly #options: Required<PaginatorOptions>;

  constructor(fetchPage: (page: number) => Promise<PageResult<T>>, options: PaginatorOptions = {}) {
    this.#fetch = fetchPage;
    this.#options = { pageSize: options.pageSize ?? 0, batch: options.batch ?? 4, maxPages: options.maxPages ?? 10_000 };
  }

  /** Pages in order, fetched one at a time. */
  async *pages(): AsyncGenerator<T[]> {
    let known: number | undefined;
    for (let page = 1; ; page++) {
      this.#guard(page);
      const result = await this.#fetch(page);
      known ??= result.pages;
      if (result.items.length > 0) yield result.items;
      if (this.#isLast(page, result, known)) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const items of this.pages()) yield* items;
  }

  /**
   * Every item. With a page count, pages 2..pages are fetched concurrently after page 1;
   * without one, pages are fetched in concurrent batches until a short or empty page.
   */
  async all(): Promise<T[]> {
    const first = await this.#fetch(1);
    if (first.pages !== undefined) {
      const last = Math.min(first.pages, this.#options.maxPages);
      const rest = await Promise.all(range(2, last).map((p) => this.#fetch(p)));
      return [first, ...rest].flatMap((r) => r.items);
    }
    const out = [...first.items];
    if (this.#isLast(1, first, undefined)) return out;
    for (let next = 2; ; next += this.#options.batch) {
      this.#guard(next);
      const batch = await Promise.all(range(next, next + this.#options.batch - 1).map((p) => this.#fetch(p)));
      for (const [i, result] of batch.entries()) {
        out.push(...result.items);
        if (this.#isLast(next + i, result, undefined)) return out;
      }
    }
  }

  #isLast(page: number, result: PageResult<T>, known: number | undefined): boolean {
    if (known !== undefined) return page >= known;
    if (result.items.length === 0) return true;
    return this.#options.pageSize > 0 && result.items.length < this.#options.pageSize;
  }

  #guard(page: number): void {
    if (page > this.#options.maxPages) {
      throw new CdnstreamError(
        `Listing did not end after ${this.#options.maxPages} pages: the API may be ignoring the page parameter. Ask for pages explicitly instead.`,
      );
    }
  }
}

function range(from: number, to: number): number[] {
  return to < from ? [] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

import { LRUCache } from 'lru-cache';
import type { Deal } from '../../../contract/deals';

/**
 * Pages of the deals list and of keyword searches as the public sees them
 * (every field but the viewer's own bid), shared by every viewer
 * (docs/decisions/0011-request-caches.md). Any public change to any deal
 * clears them all, on every instance (the 'deals-changed' signal); the
 * generation guards against a page read before a change being stored after
 * it, and the age limit against a signal lost between instances. Pages are
 * frozen: they are shared, and the response serializer writes a frozen answer
 * once (lib/response-serializer.ts).
 */
export class DealPageCache {
  private readonly pages = new LRUCache<string, Deal[]>({ max: 500, ttl: 10_000 });
  private generation = 0;

  static keyOf(options: { keyword?: string; before?: number; limit: number }) {
    return `${options.keyword?.toLowerCase() ?? ''}\u0000${options.before ?? ''}\u0000${options.limit}`;
  }

  get(key: string): Deal[] | undefined {
    return this.pages.get(key);
  }

  /** The current generation, to hand back to `set` once the page has been read. */
  begin(): number {
    return this.generation;
  }

  set(key: string, page: Deal[], generation: number) {
    if (generation === this.generation) this.pages.set(key, page);
  }

  clear() {
    this.generation++;
    this.pages.clear();
  }
}

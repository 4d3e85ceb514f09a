import type { DealChange } from '../../contract/realtime';

/**
 * The deals feed of one instance: the changes of deals (from every instance, through the 'deals-changed'
 * signal) gathered while this instance has subscribers, and sent to them together at most once per
 * `intervalMs` — each deal once, in its latest state, in the order the deals first changed. A burst of
 * changes is one message per subscriber, not one per change (docs/decisions/0030-deal-feeds.md).
 */
export class DealsFeed {
  private readonly pending = new Map<number, DealChange>();
  private timer: NodeJS.Timeout | undefined;
  private lastSentAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly options: {
      /** Sends the gathered changes to this instance's subscribers. */
      send: (changes: DealChange[]) => void;
      /** Whether this instance has subscribers now: without them, changes are not kept. */
      hasSubscribers: () => boolean;
      intervalMs: number;
    },
  ) {}

  add(change: DealChange) {
    if (!this.options.hasSubscribers()) return;
    // A deal changed twice is sent once, where it first changed, in its latest state.
    const kept = this.pending.get(change.dealId);
    if (kept) Object.assign(kept, change);
    else this.pending.set(change.dealId, { ...change });
    this.timer ??= setTimeout(
      () => this.sendNow(),
      Math.max(0, this.lastSentAt + this.options.intervalMs - Date.now()),
    );
  }

  private sendNow() {
    this.timer = undefined;
    this.lastSentAt = Date.now();
    const changes = [...this.pending.values()];
    this.pending.clear();
    if (changes.length > 0 && this.options.hasSubscribers()) this.options.send(changes);
  }

  close() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}

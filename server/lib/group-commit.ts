/** An item waiting to be written, with the way to answer its caller. */
export type Pending<Item, Answer> = {
  item: Item;
  resolve: (answer: Answer) => void;
  reject: (error: unknown) => void;
};

/**
 * A group commit: items gathered per key while a write for that key is in flight, then written together.
 * An item that finds its key idle is written at once, alone: no added wait at low load. Items that
 * arrive while it is being written wait for it and are then written together by the next write, in
 * their order (the queue's first `maxTogether`, cut where `together` says an item cannot join the ones
 * before it), until the key's queue is empty. Many concurrent writes on one row then take its lock, a
 * round trip and a commit once per statement instead of queueing for them one by one in the database.
 *
 * `write` answers each item of its batch (resolve or reject); if it throws, the items it left unanswered
 * fail with that error, and only those. Per process: each instance gathers its own.
 *
 * Used by wallet/deposits.ts (deposits into one wallet) and messages/chat-sends.ts (a sender's messages
 * on one deal); no library does this for PostgreSQL statements.
 */
export class GroupCommit<Item, Answer> {
  /** Per key, the items waiting for the write in flight (present while one is). */
  private readonly waiting = new Map<string, Array<Pending<Item, Answer>>>();

  constructor(
    private readonly options: {
      maxTogether: number;
      /** Whether `next` may be written by the same statement as `first` (default: always). */
      together?: (first: Item, next: Item) => boolean;
      write: (batch: Array<Pending<Item, Answer>>) => Promise<void>;
    },
  ) {}

  add(key: string, item: Item): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const pending = { item, resolve, reject };
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push(pending);
        return;
      }
      this.waiting.set(key, []);
      void this.drain(key, [pending]);
    });
  }

  /** Writes `batch`, then whatever gathered meanwhile, until the key's queue is empty. */
  private async drain(key: string, first: Array<Pending<Item, Answer>>) {
    for (let batch = first; batch.length > 0; batch = this.next(this.waiting.get(key)!)) {
      await this.writeSettled(batch);
    }
    this.waiting.delete(key);
  }

  /** The queue's next batch: a prefix, so that items are written in the order they came. */
  private next(queue: Array<Pending<Item, Answer>>) {
    const { maxTogether, together } = this.options;
    let size = 0;
    while (size < queue.length && size < maxTogether) {
      if (size > 0 && together && !together(queue[0]!.item, queue[size]!.item)) break;
      size++;
    }
    return queue.splice(0, size);
  }

  private async writeSettled(batch: Array<Pending<Item, Answer>>) {
    try {
      await this.options.write(batch);
    } catch (error) {
      // A promise already settled ignores this: only the items left unanswered fail.
      for (const pending of batch) pending.reject(error);
    }
  }
}

import type { BucketRule, SocketEventLimits } from '../config';

/**
 * Far above what a person's client sends (the web app joins a room when a chat opens and repeats
 * typing every 3 s; the original client may leave and rejoin a room on every render), far below a
 * flood: a socket sending 20,000 events is cut off after about a hundred of them.
 */
export const defaultSocketEventLimits: SocketEventLimits = {
  perSocket: { burst: 60, perSecond: 10 },
  perUser: { burst: 120, perSecond: 20 },
  drops: { burst: 50, perSecond: 5 },
};

/**
 * A token bucket: holds up to `burst` tokens, gains `perSecond` a second, and an event takes one.
 * Written here rather than taken from rate-limiter-flexible (docs/decisions/0022-socket-event-limits.md):
 * it is checked synchronously on every incoming packet, so events keep their order and a dropped one
 * costs no promise, timer or key.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly rule: BucketRule,
    now: number,
  ) {
    this.tokens = rule.burst;
    this.refilledAt = now;
  }

  take(now: number): boolean {
    const refill = ((now - this.refilledAt) / 1000) * this.rule.perSecond;
    this.tokens = Math.min(this.rule.burst, this.tokens + refill);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** What becomes of one incoming event. */
export type EventVerdict = 'accept' | 'drop' | 'disconnect';

/** A socket's share of the limits: `check` each event it sends, `release` once it disconnects. */
export type SocketAllowance = { check(): EventVerdict; release(): void };

/**
 * The limits on what sockets send, per socket and per user. Counted in this instance's memory: a user
 * is limited over their sockets on this instance, not over every instance (a flooder on several
 * instances is limited on each, which is what keeps each instance responsive; counting across
 * instances would cost a Redis round trip per event, the very cost being limited).
 */
export class SocketEventLimiter {
  private readonly limits: SocketEventLimits;
  private readonly users = new Map<number, { bucket: TokenBucket; sockets: number }>();

  constructor(
    limits: Partial<SocketEventLimits> = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.limits = { ...defaultSocketEventLimits, ...limits };
  }

  open(userId: number): SocketAllowance {
    const now = this.now();
    let user = this.users.get(userId);
    if (!user) {
      user = { bucket: new TokenBucket(this.limits.perUser, now), sockets: 0 };
      this.users.set(userId, user);
    }
    user.sockets++;
    const shared = user;
    const own = new TokenBucket(this.limits.perSocket, now);
    const drops = new TokenBucket(this.limits.drops, now);
    let released = false;
    return {
      check: () => {
        const at = this.now();
        if (own.take(at) && shared.bucket.take(at)) return 'accept';
        return drops.take(at) ? 'drop' : 'disconnect';
      },
      release: () => {
        if (released) return;
        released = true;
        if (--shared.sockets === 0) this.users.delete(userId);
      },
    };
  }

  /** Users with a socket on this instance (memory is held for these only). */
  get userCount(): number {
    return this.users.size;
  }
}

import type { TypingUser } from '../../contract/messages';

/** How long a typing indicator lives without a new start or a stop (the client restarts it while typing). */
export const typingTimeoutMs = 6_000;

/**
 * How long an indicator outlives a socket's own leave-deal-room: the original
 * system's client leaves and rejoins the deal room on every render, and the
 * other dealer must not see the indicator flicker.
 */
export const rejoinGraceMs = 2_000;

type Entry = { timer: NodeJS.Timeout; user: TypingUser; leftAt?: number };

/**
 * Who is typing where, for the sockets of this instance. An indicator ends on
 * stop, on timeout (a client that vanished without a stop), at once when the
 * socket disconnects or is evicted from the deal, and when it left the deal's
 * room by itself and did not come back within the grace period.
 */
export class TypingTracker {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly emit: (dealId: number, user: TypingUser, isTyping: boolean) => void,
    private readonly timeoutMs = typingTimeoutMs,
    private readonly graceMs = rejoinGraceMs,
  ) {}

  start(socketId: string, dealId: number, user: TypingUser) {
    const key = `${socketId}:${dealId}`;
    const existing = this.entries.get(key);
    if (existing) clearTimeout(existing.timer);
    else this.emit(dealId, user, true);
    this.entries.set(key, { timer: this.expireIn(socketId, dealId, this.timeoutMs), user });
  }

  stop(socketId: string, dealId: number) {
    const key = `${socketId}:${dealId}`;
    const entry = this.entries.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(key);
    this.emit(dealId, entry.user, false);
  }

  /** The socket left the deal's room itself: the indicator ends unless it rejoins within the grace period. */
  leftRoom(socketId: string, dealId: number) {
    const entry = this.entries.get(`${socketId}:${dealId}`);
    if (!entry || entry.leftAt !== undefined) return;
    clearTimeout(entry.timer);
    entry.leftAt = Date.now();
    entry.timer = this.expireIn(socketId, dealId, this.graceMs);
  }

  /** The socket is back in the deal's room: an indicator kept by the grace period goes on as before. */
  rejoinedRoom(socketId: string, dealId: number) {
    const entry = this.entries.get(`${socketId}:${dealId}`);
    if (!entry || entry.leftAt === undefined) return;
    clearTimeout(entry.timer);
    entry.leftAt = undefined;
    entry.timer = this.expireIn(socketId, dealId, this.timeoutMs);
  }

  clear() {
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    this.entries.clear();
  }

  private expireIn(socketId: string, dealId: number, ms: number) {
    const timer = setTimeout(() => this.stop(socketId, dealId), ms);
    timer.unref();
    return timer;
  }
}

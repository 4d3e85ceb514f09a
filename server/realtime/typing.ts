import type { TypingUser } from '../../contract/messages';

/** How long a typing indicator lives without a new start or a stop (the client restarts it while typing). */
export const typingTimeoutMs = 6_000;

type Entry = { timer: NodeJS.Timeout; user: TypingUser };

/**
 * Who is typing where, for the sockets of this instance. An indicator ends on
 * stop, on timeout (a client that vanished without a stop) or when the socket
 * leaves the deal's room (leave-deal-room, eviction, disconnect).
 */
export class TypingTracker {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly emit: (dealId: number, user: TypingUser, isTyping: boolean) => void,
    private readonly timeoutMs = typingTimeoutMs,
  ) {}

  start(socketId: string, dealId: number, user: TypingUser) {
    const key = `${socketId}:${dealId}`;
    const existing = this.entries.get(key);
    if (existing) clearTimeout(existing.timer);
    else this.emit(dealId, user, true);
    const timer = setTimeout(() => this.stop(socketId, dealId), this.timeoutMs);
    timer.unref();
    this.entries.set(key, { timer, user });
  }

  stop(socketId: string, dealId: number) {
    const key = `${socketId}:${dealId}`;
    const entry = this.entries.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.entries.delete(key);
    this.emit(dealId, entry.user, false);
  }

  clear() {
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    this.entries.clear();
  }
}

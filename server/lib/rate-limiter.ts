/**
 * Counts events per key in fixed windows, in this process's memory.
 * Used for failed sign-ins; with several instances each keeps its own count.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the key may try again, or 0 when it is not limited. */
  retryAfterSeconds(key: string): number {
    const window = this.current(key);
    return window && window.count >= this.max ? Math.ceil((window.resetAt - this.now()) / 1000) : 0;
  }

  record(key: string): void {
    const window = this.current(key);
    if (window) window.count++;
    else this.windows.set(key, { count: 1, resetAt: this.now() + this.windowMs });
    if (this.windows.size > 100_000) this.prune();
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  private current(key: string) {
    const window = this.windows.get(key);
    if (window && window.resetAt <= this.now()) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private prune() {
    const now = this.now();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

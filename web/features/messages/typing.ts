import type { TypingUser } from '../../../contract/messages';
import type { ServerEvents } from '../../../contract/realtime';

/** Spec §9: typing stops 3 seconds after the last keystroke. */
export const typingStopDelayMs = 3000;
/** While typing goes on, 'start' is repeated this often: the server ends an indicator it has not heard of for 6 s. */
export const typingKeepAliveMs = 3000;

/**
 * Tells the others whether this user is typing (spec §4 Messages): 'start' on the first keystroke,
 * 'stop' once no key was pressed for 3 seconds, and at once on send or on leaving.
 */
export class TypingNotifier {
  private typing = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastStartAt = 0;

  constructor(
    private readonly emit: (isTyping: boolean) => void,
    private readonly delayMs: number = typingStopDelayMs,
    private readonly now: () => number = Date.now,
  ) {}

  get isTyping(): boolean {
    return this.typing;
  }

  /** A keystroke in the message input. */
  input(): void {
    if (!this.typing || this.now() - this.lastStartAt >= typingKeepAliveMs) {
      this.typing = true;
      this.lastStartAt = this.now();
      this.emit(true);
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop(), this.delayMs);
  }

  /** The message was sent, the input emptied, or the user left: typing ends now. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.typing) {
      this.typing = false;
      this.emit(false);
    }
  }
}

/**
 * The other users typing in a deal after a typing-updated event. Events of another deal and the
 * user's own are ignored; the list is unchanged (the same array) when the event changes nothing.
 */
export function applyTypingEvent(
  typing: TypingUser[],
  event: ServerEvents['typing-updated'],
  context: { dealId: number; viewerId: number | null | undefined },
): TypingUser[] {
  if (event.dealId !== context.dealId || event.userInfo.id === context.viewerId) return typing;
  const index = typing.findIndex((user) => user.id === event.userInfo.id);
  if (event.isTyping) return index === -1 ? [...typing, event.userInfo] : typing;
  return index === -1 ? typing : typing.filter((user) => user.id !== event.userInfo.id);
}

/** The other user stopped typing (e.g. their message arrived). */
export function withoutTypingUser(typing: TypingUser[], userId: number): TypingUser[] {
  return typing.some((user) => user.id === userId) ? typing.filter((user) => user.id !== userId) : typing;
}

export const typingText = (user: TypingUser) => `${user.full_name || user.username} is typing…`;

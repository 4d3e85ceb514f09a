// Test support, never loaded by the server: real Socket.IO clients for the realtime and chat tests.
import { io, type Socket } from 'socket.io-client';
import type { ClientEvents, SocketEventListeners, SocketEvents } from '../../contract/realtime';

export type ClientSocket = Socket<SocketEventListeners, ClientEvents>;
export type EventName = keyof SocketEvents;
export type Received = { event: string; payload: unknown; at: number };
export type ConnectOptions = {
  token?: string;
  /** The handshake's auth object as sent (overrides `token`). */
  auth?: Record<string, unknown>;
  /** Extra handshake headers, such as a cookie or an Authorization header (Node's WebSocket sends them). */
  headers?: Record<string, string>;
};

/** How long "nothing arrives" is watched for: the server emits to every socket within the same tick. */
export const quietMs = 300;
const defaultTimeoutMs = 5_000;

/**
 * One WebSocket-only client that records every event it receives from the
 * handshake on, so a test can wait for an event that may already have arrived
 * and count how often it came.
 */
export class TestClient {
  readonly socket: ClientSocket;
  readonly received: Received[] = [];
  private readonly wakeUps = new Set<() => void>();

  constructor(
    readonly url: string,
    options: ConnectOptions = {},
  ) {
    this.socket = io(url, {
      transports: ['websocket'],
      auth: options.auth ?? (options.token ? { token: options.token } : {}),
      extraHeaders: options.headers,
      reconnection: false,
      forceNew: true,
      autoConnect: false,
    });
    this.socket.onAny((event: string, payload: unknown) => {
      this.received.push({ event, payload, at: performance.now() });
      for (const wakeUp of [...this.wakeUps]) wakeUp();
    });
  }

  get connected() {
    return this.socket.connected;
  }

  /** Opens the connection; rejects with the server's refusal (connect_error). */
  connect(timeoutMs = defaultTimeoutMs): Promise<this> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error('connect timed out')), timeoutMs);
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.socket.off('connect', onConnect);
        this.socket.off('connect_error', finish);
        if (error) reject(error);
        else resolve(this);
      };
      const onConnect = () => finish();
      this.socket.on('connect', onConnect);
      this.socket.on('connect_error', finish);
      this.socket.connect();
    });
  }

  /** Connects expecting a refusal and returns it. */
  async refusal(timeoutMs = defaultTimeoutMs): Promise<Error> {
    try {
      await this.connect(timeoutMs);
    } catch (error) {
      return error as Error;
    }
    throw new Error('the server accepted the connection');
  }

  /** Resolves with the reason once the socket is disconnected. */
  disconnection(timeoutMs = defaultTimeoutMs): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no disconnect within ${timeoutMs} ms`)), timeoutMs);
      this.socket.once('disconnect', (reason) => {
        clearTimeout(timer);
        resolve(reason);
      });
    });
  }

  /** Asks to join a deal's room and returns the server's answer. */
  joinDeal(dealId: number | string): Promise<{ ok: boolean; message?: string }> {
    return this.socket.timeout(defaultTimeoutMs).emitWithAck('join-deal-room', dealId);
  }

  /** Emits anything at all, as a misbehaving client could. */
  emitRaw(event: string, ...args: unknown[]) {
    (this.socket as unknown as Socket).emit(event, ...args);
  }

  /** Every payload of this event received so far that matches. */
  all<E extends EventName>(event: E, match: (payload: SocketEvents[E]) => boolean = () => true) {
    return this.received
      .filter((entry) => entry.event === event && match(entry.payload as SocketEvents[E]))
      .map((entry) => entry.payload as SocketEvents[E]);
  }

  /** The first matching event, already received or yet to come; rejects after the timeout. */
  waitFor<E extends EventName>(
    event: E,
    match: (payload: SocketEvents[E]) => boolean = () => true,
    timeoutMs = defaultTimeoutMs,
  ): Promise<SocketEvents[E]> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.all(event, match)[0];
        if (found === undefined) return false;
        done();
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching ${event} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.wakeUps.delete(wakeUp);
      };
      const wakeUp = () => void check();
      this.wakeUps.add(wakeUp);
      check();
    });
  }

  /** Forgets what was received so far. */
  clear() {
    this.received.length = 0;
  }

  close() {
    this.socket.disconnect();
  }
}

/** Creates clients and closes every one of them at the end of a test. */
export class TestClients {
  private readonly open: TestClient[] = [];

  constructor(private readonly defaultUrl: string) {}

  /** A client that is not connected yet. */
  create(options: ConnectOptions = {}, url = this.defaultUrl) {
    const client = new TestClient(url, options);
    this.open.push(client);
    return client;
  }

  /** A connected client signed in with the token. */
  connect(token: string, url = this.defaultUrl) {
    return this.create({ token }, url).connect();
  }

  closeAll() {
    for (const client of this.open.splice(0)) client.close();
  }
}

/** Waits out the window in which an event that should not come would have arrived. */
export const quietPeriod = (ms = quietMs) => new Promise((resolve) => setTimeout(resolve, ms));

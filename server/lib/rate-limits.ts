import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { limits } from '../../contract/limits';
import { tooManyRequests } from './errors';

type LimitName = keyof (typeof limits)['rateLimits'];
type Rule = { points: number; seconds: number };

/**
 * What each limit counts, how many in how long: contract/limits.ts. Sign-in
 * counts failures only: per (account, address), so a stranger cannot lock
 * the owner out of an account they sign in to from their own address, and per
 * address, so brute force from any one address stays slow.
 */
const defaultRules: Record<LimitName, Rule> = limits.rateLimits;

const messages: Record<LimitName, string> = {
  signInFailuresPerUserAndAddress: 'Too many sign-in attempts.',
  signInFailuresPerAddress: 'Too many sign-in attempts.',
  registrationsPerAddress: 'Too many registrations from this address.',
  resetRequestsPerAddress: 'Too many password reset requests.',
  resetRequestsPerEmail: 'Too many password reset requests for this email.',
  pictureUploadsPerUser: 'Too many picture uploads.',
  dealsPerUser: 'You are creating deals too quickly.',
  bidsPerUser: 'You are placing bids too quickly.',
  messagesPerUser: 'You are sending messages too quickly.',
  dealmakerRequestsPerUser: 'You are sending dealmaker requests too quickly.',
  joinRequestsPerUser: 'You are asking to join deals too quickly.',
  settlementProposalsPerUser: 'You are proposing settlements too quickly.',
  secondFactorFailuresPerUser: 'Too many wrong codes.',
  passwordChecksFailedPerUser: 'Too many wrong passwords.',
  passkeySignInFailuresPerAddress: 'Too many passkey sign-in attempts.',
  passkeySignInOptionsPerAddress: 'Too many passkey sign-in attempts.',
  verificationResendsPerAddress: 'Too many verification mails from this address.',
  verificationResendsPerEmail: 'Too many verification mails for this email.',
};

/**
 * The rate limits of the expensive or abusable calls, counted by
 * rate-limiter-flexible: in Redis when REDIS_URL is set (so every instance
 * sees the same counts), else in this process's memory
 * (docs/decisions/0016-rate-limits.md). While Redis is away, its insurance
 * limiter counts in memory.
 */
export class RateLimits {
  private readonly limiters: Record<LimitName, RateLimiterMemory | RateLimiterRedis>;

  private readonly rules: Record<LimitName, Rule>;

  private readonly onRefusal: (name: LimitName) => void;

  constructor(
    options: {
      redis?: Redis;
      keyPrefix?: string;
      rules?: Partial<Record<LimitName, Rule>>;
      /** Told of every refusal (the metrics count them by limit). */
      onRefusal?: (name: LimitName) => void;
    } = {},
  ) {
    this.onRefusal = options.onRefusal ?? (() => {});
    const prefix = options.keyPrefix ?? 'dealmaker';
    // A misspelt name (RATE_LIMITS is typed by hand) would otherwise leave the real limit unchanged unseen.
    const unknown = Object.keys(options.rules ?? {}).filter((name) => !(name in defaultRules));
    if (unknown.length > 0) throw new Error(`Unknown rate limits: ${unknown.join(', ')}.`);
    this.rules = { ...defaultRules, ...options.rules };
    const make = (name: LimitName) => {
      const { points, seconds } = this.rules[name];
      const settings = { points, duration: seconds, keyPrefix: `${prefix}:limit:${name}` };
      // With Redis away (or slow), each instance counts in its own memory until it is back: the limits
      // still hold, per instance rather than across them.
      return options.redis
        ? new RateLimiterRedis({
            ...settings,
            storeClient: options.redis,
            useRedisPackage: false,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(settings),
          })
        : new RateLimiterMemory(settings);
    };
    this.limiters = Object.fromEntries(
      (Object.keys(this.rules) as LimitName[]).map((name) => [name, make(name)]),
    ) as unknown as Record<LimitName, RateLimiterMemory | RateLimiterRedis>;
  }

  /** Counts one more event against each limit; 429 (with when to retry) when one is exceeded. */
  async consume(...checks: Array<[LimitName, string]>): Promise<void> {
    for (const [name, key] of checks) {
      try {
        await this.limiters[name].consume(key);
      } catch (error) {
        if (error instanceof RateLimiterRes) {
          this.onRefusal(name);
          throw refusal(name, error);
        }
        throw error;
      }
    }
  }

  /** 429 if any of these limits is used up already; counts nothing (for limits that count failures). */
  async check(...checks: Array<[LimitName, string]>): Promise<void> {
    for (const [name, key] of checks) {
      const state = await this.limiters[name].get(key);
      if (state && state.consumedPoints >= this.rules[name].points) {
        this.onRefusal(name);
        throw refusal(name, state);
      }
    }
  }

  /** Counts a failure against each limit without refusing (the refusal comes with the next check). */
  async record(...checks: Array<[LimitName, string]>): Promise<void> {
    for (const [name, key] of checks) await this.limiters[name].penalty(key);
  }

  async reset(name: LimitName, key: string): Promise<void> {
    await this.limiters[name].delete(key);
  }
}

function refusal(name: LimitName, state: RateLimiterRes) {
  const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  const wait = seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`;
  return tooManyRequests(`${messages[name]} Please try again in ${wait}.`, seconds);
}

/**
 * ARM's subscription throttling: a token bucket per subscription for reads (GET) and one for writes
 * (PUT, POST, PATCH, DELETE). A request takes one token; an empty bucket answers 429 with
 * `Retry-After` (whole seconds until a token is back). Every answer reports what is left in the
 * bucket of its kind (`x-ms-ratelimit-remaining-subscription-reads` / `-writes`), as ARM does.
 * Buckets refill in real time, not simulated time: throttling protects the emulator's wall clock.
 */

export interface BucketLimits {
  /** Bucket size: requests that may arrive at once. */
  burst: number;
  /** Tokens put back per second. */
  perSecond: number;
}

export interface ThrottlingOptions {
  reads?: BucketLimits;
  writes?: BucketLimits;
}

/** ARM's published limits per subscription and region. */
export const ARM_READ_LIMITS: BucketLimits = { burst: 250, perSecond: 25 };
export const ARM_WRITE_LIMITS: BucketLimits = { burst: 200, perSecond: 10 };

export type RequestKind = "reads" | "writes";

export type ThrottleDecision = { allowed: true; remaining: number } | { allowed: false; remaining: 0; retryAfterSeconds: number };

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly limits: BucketLimits,
    private readonly now: () => number,
  ) {
    this.tokens = limits.burst;
    this.updatedAt = now();
  }

  take(): ThrottleDecision {
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true, remaining: Math.floor(this.tokens) };
    }
    const secondsToNextToken = (1 - this.tokens) / this.limits.perSecond;
    return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(secondsToNextToken)) };
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.limits.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.limits.perSecond);
    this.updatedAt = now;
  }
}

export class SubscriptionThrottle {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly limits: Record<RequestKind, BucketLimits>;

  constructor(
    options: ThrottlingOptions = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.limits = { reads: options.reads ?? ARM_READ_LIMITS, writes: options.writes ?? ARM_WRITE_LIMITS };
  }

  take(subscriptionId: string, kind: RequestKind): ThrottleDecision {
    const key = `${subscriptionId.toLowerCase()}|${kind}`;
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = new TokenBucket(this.limits[kind], this.now);
      this.buckets.set(key, bucket);
    }
    return bucket.take();
  }
}

export function requestKind(method: string): RequestKind {
  return method === "GET" || method === "HEAD" ? "reads" : "writes";
}

export function remainingHeader(kind: RequestKind): string {
  return `x-ms-ratelimit-remaining-subscription-${kind}`;
}

export function throttledMessage(kind: RequestKind, subscriptionId: string, retryAfterSeconds: number): string {
  const op = kind === "reads" ? "read" : "write";
  return `Number of '${op}' requests for subscription '${subscriptionId}' exceeded the limit. Please try again after '${retryAfterSeconds}' seconds.`;
}

/** Limits shared by the server's validation and the web app's forms. */
export const limits = {
  username: { min: 3, max: 30, pattern: /^[A-Za-z0-9_.-]+$/ },
  password: { min: 8, max: 200 },
  fullName: { max: 100 },
  email: { max: 254 },
  profileText: { max: 200 },
  searchQuery: { max: 100 },
  /** The deals list's filters and saved searches (contract/discovery.ts). */
  discovery: {
    /** How far `offset` pages a sorted or ranked list. */
    maxOffset: 1000,
    /** Counts stop here and say "or more". */
    countCap: 1000,
    savedSearchesPerUser: 20,
    savedSearchName: { max: 100 },
  },
  bid: { proposal: { max: 2000 }, deliveryDays: { min: 1, max: 3650 } },
  profilePicture: {
    maxBytes: 5 * 1024 * 1024,
    /** Stored pictures are re-encoded to fit in this square. */
    maxDimension: 512,
    acceptedTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const,
  },
  deal: {
    title: { min: 1, max: 200 },
    description: { min: 1, max: 5000 },
    timeline: { min: 1, max: 200 },
    /** Budget in cents: 0.01 – 1,000,000,000.00 dollars. */
    budgetCents: { min: 1, max: 100_000_000_000 },
  },
  bidPriceCents: { min: 1, max: 100_000_000_000 },
  milestone: { title: { max: 200 }, note: { max: 1000 }, perPlan: 20 },
  requestMessage: { max: 1000 },
  message: { max: 1000 },
  depositCents: { min: 1, max: 100_000_000 },
  withdrawCents: { min: 1, max: 100_000_000_000 },
  review: { comment: { max: 1000 } },
  dispute: { title: { max: 200 }, description: { max: 5000 }, resolution: { max: 5000 } },
  progress: { title: { max: 200 }, description: { max: 5000 } },
  page: { defaultLimit: 50, maxLimit: 100 },
  tokenLifetimeSeconds: 7 * 24 * 60 * 60,
  resetTokenLifetimeSeconds: 60 * 60,
  /** Second factors, step-up and sessions (server/features/auth). */
  security: {
    /** A sign-in waiting for its second factor lives this long, and dies after this many wrong codes. */
    signInChallengeSeconds: 5 * 60,
    wrongCodesPerChallenge: 5,
    /** A second factor given in a session lets it move money or change the account for this long. */
    stepUpFreshSeconds: 10 * 60,
    recoveryCodes: 10,
    webauthnChallengeSeconds: 5 * 60,
    emailChangeLinkSeconds: 24 * 60 * 60,
    passkeyName: { max: 100 },
  },
  /** How many of each in how many seconds (server/lib/rate-limits.ts). */
  rateLimits: {
    signInFailuresPerUserAndAddress: { points: 10, seconds: 15 * 60 },
    signInFailuresPerAddress: { points: 50, seconds: 15 * 60 },
    registrationsPerAddress: { points: 10, seconds: 60 * 60 },
    resetRequestsPerAddress: { points: 10, seconds: 60 * 60 },
    resetRequestsPerEmail: { points: 3, seconds: 60 * 60 },
    pictureUploadsPerUser: { points: 30, seconds: 60 * 60 },
    // Writes that reach other people, per user: far above what a person does, low enough that one
    // account cannot flood the deals list, the bidders, a chat or the participants' notifications.
    dealsPerUser: { points: 30, seconds: 60 * 60 },
    bidsPerUser: { points: 60, seconds: 60 * 60 },
    messagesPerUser: { points: 120, seconds: 60 },
    dealmakerRequestsPerUser: { points: 60, seconds: 60 * 60 },
    joinRequestsPerUser: { points: 60, seconds: 60 * 60 },
    settlementProposalsPerUser: { points: 30, seconds: 60 * 60 },
    /** Wrong authenticator or recovery codes and failed passkey assertions, per account on every instance. */
    secondFactorFailuresPerUser: { points: 10, seconds: 15 * 60 },
    /** Wrong current passwords given by a signed-in session (password change, email change, step-up). */
    passwordChecksFailedPerUser: { points: 10, seconds: 15 * 60 },
    passkeySignInFailuresPerAddress: { points: 50, seconds: 15 * 60 },
    /** Options for a passkey sign-in are asked for without signing in: each one is a stored challenge. */
    passkeySignInOptionsPerAddress: { points: 60, seconds: 60 },
    verificationResendsPerAddress: { points: 10, seconds: 60 * 60 },
    verificationResendsPerEmail: { points: 3, seconds: 60 * 60 },
  },
} as const;

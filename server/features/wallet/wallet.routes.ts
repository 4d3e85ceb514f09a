import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  depositRequestSchema,
  idempotentHeadersSchema,
  walletMovementResponseSchema,
  walletSchema,
  walletTransactionListSchema,
  walletTransactionsQuerySchema,
  withdrawRequestSchema,
} from '../../../contract/wallet';
import { dealCallErrors } from '../../lib/route-responses';
import { bearerSecurity, currentUser, signedIn } from '../auth/auth.guard';
import { idempotencyOf, sendOutcome } from './idempotency';

const errors = dealCallErrors;
const guarded = signedIn;
const security = bearerSecurity;
const tags = ['wallet'];
const idempotencyNote =
  ' Send an Idempotency-Key header (≤ 200 characters) to make retries safe: the same key replays the first answer.';

export const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  const { wallet } = app.services;

  app.get(
    '/api/wallet',
    { ...guarded, schema: { tags, security, response: { 200: walletSchema, ...errors } } },
    async (request) => wallet.get(currentUser(request).id),
  );

  app.get(
    '/api/wallet/transactions',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description:
          'Transaction History, newest first. `amount` is unsigned: deposit, escrow_refund and payment_received add to the balance, withdraw and escrow_lock take from it.',
        querystring: walletTransactionsQuerySchema,
        response: { 200: walletTransactionListSchema, ...errors },
      },
    },
    async (request) => wallet.transactions(currentUser(request).id, request.query),
  );

  app.post(
    '/api/wallet/deposit',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description: `Simulated deposit of 0.01 – 1,000,000.00 dollars.${idempotencyNote}`,
        headers: idempotentHeadersSchema,
        body: depositRequestSchema,
        response: { 200: walletMovementResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendOutcome(
        reply,
        await wallet.deposit(
          currentUser(request).id,
          request.body.amount,
          idempotencyOf(request, request.body),
        ),
      ),
  );

  app.post(
    '/api/wallet/withdraw',
    {
      ...guarded,
      schema: {
        tags,
        security,
        description: `Withdraws up to the balance (409 INSUFFICIENT_FUNDS beyond it).${idempotencyNote}`,
        headers: idempotentHeadersSchema,
        body: withdrawRequestSchema,
        response: { 200: walletMovementResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      sendOutcome(
        reply,
        await wallet.withdraw(
          currentUser(request).id,
          request.body.amount,
          idempotencyOf(request, request.body),
        ),
      ),
  );
};

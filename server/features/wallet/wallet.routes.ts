import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotentHeadersSchema } from '../../../contract/idempotency';
import {
  depositRequestSchema,
  walletExportQuerySchema,
  walletMovementResponseSchema,
  walletSchema,
  walletTransactionListSchema,
  walletTransactionsQuerySchema,
  withdrawRequestSchema,
} from '../../../contract/wallet';
import { idempotencyOf, sendOutcome } from '../../lib/idempotency';
import { currentUser, requireRecentFactor, routeDefaults } from '../../lib/route-guard';

const idempotencyNote =
  ' Send an Idempotency-Key header (≤ 200 characters) to make retries safe: the same key replays the first answer.';

export const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['wallet'], signedIn: true });
  const { wallet } = app.services;

  app.get('/api/wallet', { schema: { response: { 200: walletSchema } } }, async (request) =>
    wallet.get(currentUser(request).id),
  );

  app.get(
    '/api/wallet/transactions',
    {
      schema: {
        description:
          'Transaction History, newest first. `amount` is unsigned: deposit, escrow_refund and payment_received add to the balance, withdraw and escrow_lock take from it.',
        querystring: walletTransactionsQuerySchema,
        response: { 200: walletTransactionListSchema },
      },
    },
    async (request) => wallet.transactions(currentUser(request).id, request.query),
  );

  app.get(
    '/api/wallet/transactions.csv',
    {
      schema: {
        description:
          'The whole Transaction History (or one `type` of it), newest first, as a CSV download: reference, date, type, description, signed amount, balance before and after, deal id.',
        querystring: walletExportQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const csv = await wallet.transactionsCsv(currentUser(request).id, request.query);
      const day = new Date().toISOString().slice(0, 10);
      const suffix = request.query.type ? `-${request.query.type}` : '';
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="dealmaker-transactions${suffix}-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.post(
    '/api/wallet/deposit',
    {
      schema: {
        description: `Simulated deposit of 0.01 – 1,000,000.00 dollars.${idempotencyNote}`,
        headers: idempotentHeadersSchema,
        body: depositRequestSchema,
        response: { 200: walletMovementResponseSchema },
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
      // Money leaves the product: with a second factor on, it must have been given in the last minutes.
      preHandler: requireRecentFactor,
      schema: {
        description: `Withdraws up to the balance (409 INSUFFICIENT_FUNDS beyond it; 403 STEP_UP_REQUIRED without a recent second factor, for an account with one).${idempotencyNote}`,
        headers: idempotentHeadersSchema,
        body: withdrawRequestSchema,
        response: { 200: walletMovementResponseSchema },
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

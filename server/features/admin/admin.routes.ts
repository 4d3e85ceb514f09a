import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminDisputeListSchema,
  adminDisputesQuerySchema,
  auditListSchema,
  auditQuerySchema,
  ledgerCheckSchema,
} from '../../../contract/admin';
import { disputeSchema } from '../../../contract/disputes';
import { idParamSchema } from '../../../contract/fields';
import { operatorSettlementSchema } from '../../../contract/settlements';
import { currentUser, routeDefaults } from '../../lib/route-guard';

/** The operators' calls: every one refuses other users with 403. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['admin'], signedIn: true, operatorsOnly: true });
  const { admin } = app.services;

  app.get(
    '/api/admin/disputes',
    {
      schema: {
        description:
          'Disputes, newest first, each with its deal, escrow, participants, proposals and timeline; `escalated=true` is the queue.',
        querystring: adminDisputesQuerySchema,
        response: { 200: adminDisputeListSchema },
      },
    },
    async (request) => admin.disputeQueue(request.query),
  );

  app.post(
    '/api/admin/disputes/:id/settle',
    {
      schema: {
        description:
          'Settles the locked escrow of an open dispute as an agreed proposal would (the rest back to the dealers in proportion to what each paid); the operator is recorded as the resolver.',
        params: idParamSchema,
        body: operatorSettlementSchema,
        response: { 200: disputeSchema },
      },
    },
    async (request) => {
      const { id, username } = currentUser(request);
      return admin.settle(request.params.id, { id, username }, request.body);
    },
  );

  app.get(
    '/api/admin/ledger/check',
    {
      schema: {
        description: 'Every money invariant, with counts and each violation.',
        response: { 200: ledgerCheckSchema },
      },
    },
    async () => admin.ledgerCheck(),
  );

  app.get(
    '/api/admin/audit',
    {
      schema: {
        description:
          'The audit log, newest first: every change of a deal, every money movement, sign-ins, password resets and operator actions.',
        querystring: auditQuerySchema,
        response: { 200: auditListSchema },
      },
    },
    async (request) => admin.auditLog(request.query),
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { disputeSchema } from '../../../contract/disputes';
import { dealIdParamSchema, idParamSchema } from '../../../contract/fields';
import {
  adminDealTimelineQuerySchema,
  adminDealTimelineSchema,
  auditListSchema,
  auditQuerySchema,
  ledgerCheckSchema,
  operatorDisputeListSchema,
  operatorDisputesQuerySchema,
} from '../../../contract/operator';
import { operatorSettlementSchema } from '../../../contract/settlements';
import { currentUser, requireRecentFactor, routeDefaults } from '../../lib/route-guard';

/** The operators' calls: every one refuses other users with 403. */
export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['operator'], signedIn: true, operatorsOnly: true });
  const { operator } = app.services;

  app.get(
    '/api/admin/disputes',
    {
      schema: {
        description:
          'Disputes, newest first, each with its deal, escrow, participants, proposals and timeline; `escalated=true` is the queue.',
        querystring: operatorDisputesQuerySchema,
        response: { 200: operatorDisputeListSchema },
      },
    },
    async (request) => operator.disputeQueue(request.query),
  );

  app.get(
    '/api/admin/deals/:dealId/timeline',
    {
      schema: {
        description:
          "The evidence of a dispute: the deal's chat messages and system entries in one list, paged as the participants' own timeline (newest first; older pages with `before`; with `after`, the entries after that id, oldest first). Read-only; every read is written to the audit log (`operator.read-deal`).",
        params: dealIdParamSchema,
        querystring: adminDealTimelineQuerySchema,
        response: { 200: adminDealTimelineSchema },
      },
    },
    async (request) => operator.dealTimeline(request.params.dealId, request.query),
  );

  app.post(
    '/api/admin/disputes/:id/settle',
    {
      // Money moves by an operator's hand: a second factor given in the last minutes, as for a withdrawal.
      preHandler: requireRecentFactor,
      schema: {
        description:
          'Settles the locked escrow of an open, escalated dispute as an agreed proposal would (the rest back to the dealers in proportion to what each paid); the operator is recorded as the resolver. 409 for a dispute not escalated yet; 403 for a deal the operator takes part in (another operator must settle it). A refusal moves nothing and is audited (`operator.settle-refused`).',
        params: idParamSchema,
        body: operatorSettlementSchema,
        response: { 200: disputeSchema },
      },
    },
    async (request) => {
      const { id, username } = currentUser(request);
      return operator.settle(request.params.id, { id, username }, request.body);
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
    async () => operator.ledgerCheck(),
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
    async (request) => operator.auditLog(request.query),
  );
};

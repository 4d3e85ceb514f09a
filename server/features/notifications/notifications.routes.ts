import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  markNotificationsReadSchema,
  notificationListQuerySchema,
  notificationListSchema,
  notificationPreferencesChangeSchema,
  notificationPreferencesSchema,
  unreadCountSchema,
} from '../../../contract/notifications';
import { currentUser, routeDefaults } from '../../lib/route-guard';

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  routeDefaults(app, { tags: ['notifications'], signedIn: true });
  const { notifications } = app.services;

  app.get(
    '/api/notifications',
    {
      schema: {
        description:
          "The caller's notifications, newest first (older pages with `before`), and how many are unread.",
        querystring: notificationListQuerySchema,
        response: { 200: notificationListSchema },
      },
    },
    async (request) => notifications.list(currentUser(request).id, request.query),
  );

  app.post(
    '/api/notifications/read',
    {
      schema: {
        description: 'Marks some of the caller’s notifications (`ids`) or all of them (`all: true`) as read.',
        body: markNotificationsReadSchema,
        response: { 200: unreadCountSchema },
      },
    },
    async (request) => notifications.markRead(currentUser(request).id, request.body),
  );

  app.get(
    '/api/notifications/preferences',
    { schema: { response: { 200: notificationPreferencesSchema } } },
    async (request) => notifications.preferences(currentUser(request).id),
  );

  app.put(
    '/api/notifications/preferences',
    {
      schema: {
        description:
          'Turns the mail of each kind on or off (`{ email: { <kind>: boolean } }`); kinds left out keep their setting.',
        body: notificationPreferencesChangeSchema,
        response: { 200: notificationPreferencesSchema },
      },
    },
    async (request) => notifications.setPreferences(currentUser(request).id, request.body),
  );
};

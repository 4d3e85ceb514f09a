import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { type ZodType, z } from 'zod';

/**
 * Answers are written by serializers compiled once per route and status from
 * the route's zod response schema (through its JSON Schema), with
 * fast-json-stringify, Fastify's own serializer: only the declared fields
 * leave the server, and no schema is walked per request
 * (docs/decisions/0010-response-serializer.md).
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) =>
  fastJsonStringify(
    z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as object,
  );

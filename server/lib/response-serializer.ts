import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { type ZodType, z } from 'zod';

/**
 * Answers are written by serializers compiled once per route and status from
 * the route's zod response schema (through its JSON Schema), with
 * fast-json-stringify, Fastify's own serializer: only the declared fields
 * leave the server, and no schema is walked per request
 * (docs/decisions/0010-response-serializer.md). A frozen answer is one that
 * requests share (a cached page of the deals list): each route writes it once
 * and answers the same text until it is dropped.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) => {
  const serialize = fastJsonStringify(
    z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as object,
  );
  const written = new WeakMap<object, string>();
  return (payload: unknown) => {
    if (typeof payload !== 'object' || payload === null || !Object.isFrozen(payload))
      return serialize(payload);
    const cached = written.get(payload);
    if (cached !== undefined) return cached;
    const text = serialize(payload);
    written.set(payload, text);
    return text;
  };
};

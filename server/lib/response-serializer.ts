import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { type ZodType, z } from 'zod';

/** Writes a frozen value once: requests that share it get the same text until it is dropped. */
function writtenOnce(serialize: (value: unknown) => string) {
  const written = new WeakMap<object, string>();
  return (value: object) => {
    let text = written.get(value);
    if (text === undefined) {
      text = serialize(value);
      written.set(value, text);
    }
    return text;
  };
}

/**
 * Answers are written by serializers compiled once per route and status from
 * the route's zod response schema (through its JSON Schema), with
 * fast-json-stringify, Fastify's own serializer: only the declared fields
 * leave the server, and no schema is walked per request
 * (docs/decisions/0010-response-serializer.md). A frozen answer is one that
 * requests share (a cached page of the deals list): each route writes it once
 * and answers the same text until it is dropped. So is a frozen item of an
 * array answer: a page of the deals list as one viewer gets it is mostly the
 * shared answers of its deals, each written once.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema }) => {
  const jsonSchema = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-7',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  const serialize = fastJsonStringify(jsonSchema);
  const whole = writtenOnce(serialize);
  // An array of self-contained items (no shared definitions to refer to): its items are written one by one.
  const selfContained =
    jsonSchema.type === 'array' &&
    typeof jsonSchema.items === 'object' &&
    !jsonSchema.definitions &&
    !jsonSchema.$defs;
  const serializeItem = selfContained ? fastJsonStringify(jsonSchema.items as object) : null;
  const item = serializeItem ? writtenOnce(serializeItem) : null;
  return (payload: unknown) => {
    if (typeof payload !== 'object' || payload === null) return serialize(payload);
    if (Object.isFrozen(payload)) return whole(payload);
    if (item && serializeItem && Array.isArray(payload) && payload.some(Object.isFrozen)) {
      const parts = new Array<string>(payload.length);
      for (let index = 0; index < payload.length; index++) {
        const value: unknown = payload[index];
        parts[index] =
          typeof value === 'object' && value !== null && Object.isFrozen(value)
            ? item(value)
            : serializeItem(value);
      }
      return `[${parts.join(',')}]`;
    }
    return serialize(payload);
  };
};

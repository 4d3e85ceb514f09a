import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer';

const serializerFor = (schema: z.ZodType) =>
  responseSerializerCompiler({ schema, method: 'GET', url: '/test', httpStatus: '200' }) as (
    payload: unknown,
  ) => string;

describe('responseSerializerCompiler', () => {
  const schema = z.array(z.object({ id: z.number(), title: z.string() }));

  it('writes only the declared fields', () => {
    const serialize = serializerFor(schema);
    expect(serialize([{ id: 1, title: 'Harbour crane', secret: 'kept' }])).toBe(
      '[{"id":1,"title":"Harbour crane"}]',
    );
  });

  it('writes a frozen (shared) answer once per route, and anything else every time', () => {
    const serialize = serializerFor(schema);
    const shared = Object.freeze([Object.freeze({ id: 1, title: 'Harbour crane' })]);
    const first = serialize(shared);
    expect(first).toBe('[{"id":1,"title":"Harbour crane"}]');
    expect(serialize(shared)).toBe(first);

    const mutable = [{ id: 2, title: 'Cargo lease' }];
    expect(serialize(mutable)).toBe('[{"id":2,"title":"Cargo lease"}]');
    mutable[0]!.title = 'Cargo lease two';
    expect(serialize(mutable)).toBe('[{"id":2,"title":"Cargo lease two"}]');

    // Another route's serializer writes the same object by its own schema.
    const idsOnly = serializerFor(z.array(z.object({ id: z.number() })));
    expect(idsOnly(shared)).toBe('[{"id":1}]');
  });

  it('writes the frozen (shared) items of an array answer once, and the others every time', () => {
    const serialize = serializerFor(schema);
    const shared = Object.freeze({ id: 1, title: 'Harbour crane', secret: 'kept' });
    const own = { id: 2, title: 'Cargo lease' };
    const answer = [shared, own, shared];
    const whole =
      '[{"id":1,"title":"Harbour crane"},{"id":2,"title":"Cargo lease"},{"id":1,"title":"Harbour crane"}]';
    expect(serialize(answer)).toBe(whole);
    own.title = 'Cargo lease two';
    expect(serialize([shared, own])).toBe(
      '[{"id":1,"title":"Harbour crane"},{"id":2,"title":"Cargo lease two"}]',
    );
    expect(serialize([])).toBe('[]');
  });
});

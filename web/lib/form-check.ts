import type { z } from 'zod';

/** What a form's check found: the values the schema gave, or what it refused. */
export type FormCheck<Value> =
  | { ok: true; value: Value }
  | {
      ok: false;
      /** The schema's first message: for a form that shows one. */
      problem: string;
      /** The schema's first message about each field, by the field's name in the request. */
      problems: Partial<Record<string, string>>;
    };

/**
 * A form's input checked with the contract's schema of the request it sends: one schema for the form
 * and the server (the form says what the server would refuse, in the server's words, before sending).
 */
export function checkWith<Schema extends z.ZodType>(
  schema: Schema,
  input: z.input<Schema>,
): FormCheck<z.output<Schema>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const problems: Partial<Record<string, string>> = {};
  for (const issue of result.error.issues) problems[String(issue.path[0] ?? '')] ??= issue.message;
  return { ok: false, problem: result.error.issues[0]!.message, problems };
}

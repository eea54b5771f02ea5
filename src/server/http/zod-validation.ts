import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { type ZodType, z } from 'zod';

/** Lets routes declare zod schemas and get typed, already-parsed `request.body` and `request.query`. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends ZodType ? z.input<this['schema']> : unknown;
}

export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };

export function isZodError(error: unknown): error is z.ZodError {
  return error instanceof z.ZodError;
}

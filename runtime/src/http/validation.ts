import type { Request } from 'express';
import type { z } from 'zod';
import { type FieldError, ProblemError } from './problem';
import { unstorableTextPaths } from './unstorable-text';

// The one way request input is validated: a zod schema per body, query and path, each failure a 400
// `validation_failed` with one entry per offending field. Unknown fields are rejected by the schemas
// themselves (strict objects); their error names the unknown key. Text that could not be stored (NUL,
// lone surrogates) is refused here for every route, before any schema or handler sees it.

type Issue = z.core.$ZodIssue;

const dotted = (path: readonly PropertyKey[]): string => path.map(String).join('.');

const fieldErrors = (issue: Issue): FieldError[] =>
  issue.code === 'unrecognized_keys'
    ? issue.keys.map((key) => ({ path: dotted([...issue.path, key]), message: 'unknown field' }))
    : [{ path: dotted(issue.path), message: issue.message }];

// Schema-level messages win; this only replaces zod's wording for an absent value.
const absentIsRequired = (issue: z.core.$ZodRawIssue): string | undefined =>
  issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : undefined;

/** Parses or throws 400 validation_failed; the first message per field is kept. */
export const parseInput = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> => {
  const unstorable = unstorableTextPaths(input);
  if (unstorable.length > 0)
    throw ProblemError.validationFailed(
      unstorable.map((path) => ({ path: dotted(path), message: 'must not contain NUL or unpaired surrogates' })),
    );
  const result = schema.safeParse(input, { error: absentIsRequired });
  if (result.success) return result.data;
  const byPath = new Map<string, FieldError>();
  for (const error of result.error.issues.flatMap(fieldErrors))
    if (!byPath.has(error.path)) byPath.set(error.path, error);
  throw ProblemError.validationFailed([...byPath.values()]);
};

/** An absent body is validated as `{}`, so a missing body reports each missing required field. */
export const parseBody = <S extends z.ZodType>(schema: S, req: Request): z.output<S> =>
  parseInput(schema, req.body ?? {});

export const parseQuery = <S extends z.ZodType>(schema: S, req: Request): z.output<S> => parseInput(schema, req.query);

export const parseParams = <S extends z.ZodType>(schema: S, req: Request): z.output<S> =>
  parseInput(schema, req.params);

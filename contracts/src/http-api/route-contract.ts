import type { z } from '../zod';
import type { ProblemCode, ProblemCodeOf, ProblemStatus } from './problem-codes';

// What a route promises its callers: the part of a route declaration the OpenAPI document is built from
// and the router validates with. The handler is added beside it (runtime's `Route`); the HTTP layer's
// own statuses (401, 429, 413, …) are added to every route by route-problems.ts.

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The roles of a token's `roles` claim a route may be called with; admins pass every role check. */
export type Role = 'insurer' | 'auditor' | 'data_provider' | 'reinsurer' | 'field_agent';

export interface RouteRequest {
  /** The path's `{name}` segments, as a strict object. */
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** Header names as written in the document (`If-Match`); validated against the request's headers. */
  readonly headers?: z.ZodObject;
  /** A JSON body. A write route that declares none accepts only an empty one (`NoBody`). */
  readonly body?: z.ZodType;
  /** False when the body may be left out altogether (its schema accepts `{}`). */
  readonly bodyRequired?: boolean;
  /** A file as the body, of one of these media types: streamed to the handler (`req`), never parsed, and
   *  free of the JSON body limit (the handler keeps its own). Excludes `body`. */
  readonly file?: { readonly mediaTypes: readonly string[] };
  /** The same body as text of another media type, beside JSON: read into the JSON body, then validated as
   *  `body` like one sent as JSON, so both forms take one path. Needs `body`. */
  readonly text?: TextRequestBody;
}

/** A text form of a route's JSON body (a term sheet's phase table as `text/csv`, TERM-SHEETS.md §5.1). */
export interface TextRequestBody {
  readonly mediaType: 'text/csv';
  readonly description: string;
  readonly example: string;
  /** The JSON body the text says, given the request's parsed query for what the text does not carry; throws
   *  a 400 problem when the text cannot be read. */
  read(text: string, query: unknown): unknown;
}

/** A text form of a route's success body, answered instead of the JSON when the query says
 *  `format=<format>` (a product version's phase table, `?format=csv`). */
export interface TextResponseBody {
  readonly format: 'csv';
  readonly mediaType: 'text/csv';
  readonly description: string;
  readonly example: string;
  /** The text of the JSON answer the handler returned. */
  write(answer: never): string;
}

export interface SuccessResponse {
  /** 202: accepted as a job, read at its Location. */
  readonly status: 200 | 201 | 202 | 204;
  readonly description: string;
  /** Absent for 204. */
  readonly schema?: z.ZodType;
  /** Headers the route itself sets on success, name → description (Location and the write headers are added
   *  to every route). */
  readonly headers?: Readonly<Record<string, string>>;
  /** A write that may find nothing to record answers this status with the same schema instead (a product
   *  version identical to the latest is answered 200 with that version, TERM-SHEETS.md §2.1). */
  readonly unchanged?: { readonly status: 200; readonly description: string };
  readonly text?: TextResponseBody;
}

/** The problems a route may answer beyond the HTTP layer's, by status: each status's codes must be codes
 *  of that status (problem-codes.ts). */
export type RouteProblems = {
  readonly [S in ProblemStatus]?: { readonly description: string; readonly codes: readonly ProblemCodeOf<S>[] };
};

export interface RouteContract {
  readonly method: HttpMethod;
  /** As the document writes it: `/farms/{farm_id}/fields`. */
  readonly path: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  /** Any of these roles, or admin, and an `org_id` in the token; absent: any authenticated caller. */
  readonly roles?: readonly Role[];
  readonly request?: RouteRequest;
  readonly success: SuccessResponse;
  readonly problems?: RouteProblems;
}

/** How a route is named where it is declared: `POST /farms/{farm_id}/fields`, as a request line reads. */
export type Operation = `${'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'} /${string}`;

/** What a route's file declares besides its operation; its tags come from the list it is in. */
export type RouteDeclaration = Omit<RouteContract, 'method' | 'path' | 'tags'>;

/** The codes a route's own declaration lists (the HTTP layer's come on top, route-problems.ts). */
export type DeclaredCodeOf<C extends RouteDeclaration> = C['problems'] extends infer P
  ? P extends RouteProblems
    ? { [S in keyof P]-?: NonNullable<P[S]> extends { readonly codes: readonly (infer K)[] } ? K : never }[keyof P] &
        ProblemCode
    : never
  : never;

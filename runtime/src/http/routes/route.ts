import {
  type DeclaredCodeOf,
  type HttpMethod,
  NoBody,
  type Operation,
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  type RouteContract,
  type RouteDeclaration,
  type RouteRequest,
} from '@cropcover/contracts';
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { type Principal, principalOf, requireRolesInOrganization } from '../principal';
import { type FieldError, ProblemError } from '../problem';
import { parseBody, parseInput } from '../validation';
import { rememberRoute } from './answered-route';

// One declaration per route: what it accepts and answers (its `RouteContract`, from which the OpenAPI
// document is built) and the handler, side by side. The router checks the roles and validates every
// declared part of the request before the handler runs, hands it the parsed parts, and answers with the
// declared success status whatever body the handler returns.

type Part<C extends RouteDeclaration, K extends 'params' | 'query' | 'headers' | 'body'> = C['request'] extends infer R
  ? R extends { readonly [P in K]: infer S extends z.ZodType }
    ? z.output<S>
    : undefined
  : undefined;

/** A problem to throw, with one of the codes the route declares (its status is the code's own). */
export type Refuse<Code extends string> = (code: Code, detail: string, errors?: readonly FieldError[]) => ProblemError;

/** What a handler is given: the request's parts as declared and parsed, who calls, and the response to set
 *  headers on (Location, ETag, read-your-writes). */
export interface RouteCall<Deps, C extends RouteDeclaration> {
  readonly deps: Deps;
  readonly params: Part<C, 'params'>;
  readonly query: Part<C, 'query'>;
  readonly headers: Part<C, 'headers'>;
  readonly body: Part<C, 'body'>;
  readonly principal: Principal;
  /** The organization the caller acts for: always there on a route that declares roles. */
  readonly organizationId: C extends { readonly roles: readonly unknown[] } ? string : string | null;
  readonly refuse: Refuse<DeclaredCodeOf<C>>;
  /** Answers the declaration's `success.unchanged` status instead of its success status: nothing was
   *  recorded. */
  readonly answerUnchanged: () => void;
  readonly req: Request;
  readonly res: Response;
}

/** The success body the declaration documents; nothing for a 204. */
export type SuccessBody<C extends RouteDeclaration> = C['success'] extends {
  readonly schema: infer S extends z.ZodType;
}
  ? z.output<S>
  : undefined;

export type RouteHandler<Deps, C extends RouteDeclaration> = (call: RouteCall<Deps, C>) => Promise<SuccessBody<C>>;

export interface RouteOptions<Deps> {
  /** The request as this process accepts it, where its configuration loosens the documented one
   *  (WEBHOOK_ALLOW_INSECURE accepts http webhook URLs). */
  readonly acceptedRequest?: (deps: Deps) => RouteRequest;
}

/** A declared route: its contract, and the express handler it becomes with a process's dependencies. */
export interface Route<Deps> extends RouteContract {
  readonly serve: (deps: Deps) => RequestHandler;
}

const refuse: Refuse<keyof typeof PROBLEM_STATUSES> = (code, detail, errors) => {
  const status = PROBLEM_STATUSES[code];
  return new ProblemError({ status, code, title: PROBLEM_TITLES[status], detail, ...(errors ? { errors } : {}) });
};

/** The declared headers' values, by the names the declaration writes them with. */
const headerValues = (req: Request, schema: z.ZodObject): Record<string, string> =>
  Object.fromEntries(
    Object.keys(schema.shape).flatMap((name) => {
      const value = req.get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );

/** `POST /farms/{farm_id}/fields` → its method and path. */
const parseOperation = (operation: Operation): { method: HttpMethod; path: string } => {
  const [method, path] = operation.split(' ') as [string, string];
  return { method: method.toLowerCase() as HttpMethod, path };
};

const serveWith =
  <Deps>(contract: RouteContract, handler: RouteHandler<Deps, RouteDeclaration>, options: RouteOptions<Deps>) =>
  (deps: Deps): RequestHandler => {
    const { params, query, headers, body, file, text } = options.acceptedRequest?.(deps) ?? contract.request ?? {};
    // A write that declares no body accepts only an empty one, so a field sent to it is refused, not ignored;
    // a file body is the handler's to stream.
    const bodySchema = body ?? (contract.method === 'get' || file ? undefined : NoBody);
    return async (req, res) => {
      rememberRoute(req, contract);
      let status: number = contract.success.status;
      const answerUnchanged = () => {
        if (contract.success.unchanged === undefined) {
          throw new Error(`${contract.method} ${contract.path} declares no unchanged answer`);
        }
        status = contract.success.unchanged.status;
      };
      const principal = principalOf(req);
      const organizationId = contract.roles
        ? requireRolesInOrganization(principal, ...contract.roles)
        : principal.organizationId;
      const parsedParams = params && parseInput(params, req.params);
      const parsedQuery = query && parseInput(query, req.query);
      const parsedHeaders = headers && parseInput(headers, headerValues(req, headers));
      // The text form (the JSON parser left it a string) is read into the JSON body, then validated as one.
      const textForm = text && typeof req.body === 'string' && req.is(text.mediaType);
      const call = {
        deps,
        params: parsedParams,
        query: parsedQuery,
        headers: parsedHeaders,
        body:
          bodySchema &&
          (textForm ? parseInput(bodySchema, text.read(req.body, parsedQuery)) : parseBody(bodySchema, req)),
        principal,
        organizationId,
        refuse,
        answerUnchanged,
        req,
        res,
      } as unknown as RouteCall<Deps, RouteDeclaration>;
      const answer = await handler(call);
      res.status(status);
      const textAnswer = contract.success.text;
      if (contract.success.schema === undefined) res.end();
      else if (textAnswer && (parsedQuery as { format?: unknown } | undefined)?.format === textAnswer.format)
        res.type(textAnswer.mediaType).send(textAnswer.write(answer as never));
      else res.json(answer);
    };
  };

/** A declaration waiting for its handler: `declareRoute(operation, declaration).handle(handler)`, so the
 *  handler's parameters are typed by the declaration. */
export interface DeclaredRoute<Deps, C extends RouteDeclaration> {
  handle(handler: RouteHandler<Deps, C>, options?: RouteOptions<Deps>): Route<Deps>;
}

export const declareRoute = <Deps, const C extends RouteDeclaration>(
  operation: Operation,
  declaration: C,
): DeclaredRoute<Deps, C> => ({
  handle: (handler, options = {}) => {
    const contract: RouteContract = { ...parseOperation(operation), tags: [], ...declaration };
    return { ...contract, serve: serveWith(contract, handler as RouteHandler<Deps, RouteDeclaration>, options) };
  },
});

/** A list's routes under its tag in the document: the lists group routes by concept, one tag each. */
export const tagged = <Deps>(tag: string, routes: readonly Route<Deps>[]): Route<Deps>[] =>
  routes.map((route) => ({ ...route, tags: [tag] }));

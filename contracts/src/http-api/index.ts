export { type ApiAnswer, type ApiOperation, type ApiRequest, apiOperations } from './api-operations';
export {
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  type ProblemCode,
  type ProblemCodeOf,
  type ProblemStatus,
} from './problem-codes';
export type {
  DeclaredCodeOf,
  HttpMethod,
  Operation,
  Role,
  RouteContract,
  RouteDeclaration,
  RouteProblems,
  RouteRequest,
  SuccessResponse,
  TextRequestBody,
  TextResponseBody,
} from './route-contract';
export { operationIdOf } from './route-operation';
export { mayAnswer, type ProblemAnswer, routeProblems } from './route-problems';

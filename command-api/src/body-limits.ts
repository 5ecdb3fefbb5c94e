/** Bulk writes whose documented batch size does not fit the 1 MiB body limit: 10,000 index readings
 *  with UUID farm ids take about 2 MiB; a product backtest of 1,000 locations with an observed loss for
 *  each of 30 seasons (30,000 outcomes naming their source) about 4 MiB. */
export const COMMAND_BODY_LIMITS: Readonly<Record<string, number>> = {
  '/insurance/index-readings': 4 * 1024 * 1024,
  '/insurance/products/backtest': 8 * 1024 * 1024,
};

/** A declared path as a pattern the HTTP app can test before routing: `{param}` is one path segment. */
const pathPattern = (path: string): RegExp => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);

/** Routes whose body is a file they stream themselves, as path patterns. */
export const commandFileBodyPaths = (routes: readonly { path: string; request?: { file?: unknown } }[]): RegExp[] =>
  routes.filter((route) => route.request?.file !== undefined).map((route) => pathPattern(route.path));

/** Routes that take a text form of their JSON body (a sheet's phase table), with its media type. */
export const commandTextBodyRoutes = (
  routes: readonly { path: string; request?: { text?: { mediaType: string } } }[],
): { path: RegExp; mediaType: string }[] =>
  routes.flatMap(({ path, request }) =>
    request?.text ? [{ path: pathPattern(path), mediaType: request.text.mediaType }] : [],
  );

import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';

/**
 * Human API docs: Swagger UI with its assets served from the swagger-ui-dist package (no CDN), showing
 * the given OpenAPI document. `serveFiles` keeps the document per router, so several apps in one
 * process (tests) each show their own.
 */
export const docsRouter = (openApiDocument: object): Router => {
  const router = Router();
  router.use(
    swaggerUi.serveFiles(openApiDocument),
    swaggerUi.setup(openApiDocument, { customSiteTitle: 'CropCover API' }),
  );
  return router;
};

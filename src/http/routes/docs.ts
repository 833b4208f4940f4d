// GET /docs: an interactive reference of both OpenAPI documents, served from the project's own dependencies
// (swagger-ui-dist), no CDN. The page and its start-up script are ours; the viewer's files are read once.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../kernel/errors.js';

const VIEWER = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The viewer's files this page uses, with their types. */
// A Map, not an object: a name such as `constructor` or `__proto__` must find nothing, not an inherited member.
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'application/javascript; charset=utf-8'],
]);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quarry API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
`;

const START = `window.addEventListener('load', () => {
  window.ui = SwaggerUIBundle({
    urls: [
      { url: '/v1/datasets/openapi.json', name: 'Stored datasets (gds_ keys)' },
      { url: '/v1/openapi.json', name: 'Market data (svc_mcp_ keys)' },
    ],
    dom_id: '#reference',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
});
`;

export function registerDocsRoutes(app: FastifyInstance): void {
  const files = new Map<string, Buffer>();
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/docs/start.js', async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').send(START),
  );
  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const { file } = request.params;
    const type = ASSETS.get(file);
    if (!type) throw new AppError('not_found', `No file /docs/${file}.`);
    let bytes = files.get(file);
    if (!bytes) {
      bytes = readFileSync(path.join(VIEWER, file));
      files.set(file, bytes);
    }
    reply.header('cache-control', 'public, max-age=86400');
    return reply.type(type).send(bytes);
  });
}

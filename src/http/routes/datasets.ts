// Registers the eleven keyed dataset routes from their definitions.

import type { FastifyInstance } from 'fastify';
import { Envelope } from '../../datasets/envelope.js';
import { describePrice } from '../../datasets/estimate.js';
import { OPERATIONS } from '../../datasets/registry.js';
import type { Deps } from '../../kernel/deps.js';
import { membersOf } from '../context.js';
import { JsonBytes, KEYED_STATUSES, responses } from '../responses.js';

export function registerDatasetRoutes(app: FastifyInstance, deps: Deps): void {
  for (const op of OPERATIONS) {
    const json = new JsonBytes();
    app.get(op.url, {
      schema: {
        ...(op.params ? { params: op.params } : {}),
        querystring: op.querystring,
        response: responses(Envelope(op.data), ...KEYED_STATUSES),
      },
      config: {
        meta: {
          doc: 'datasets',
          operationId: op.id,
          summary: op.summary,
          description: `${op.description} Costs ${describePrice(op)}.`,
          tags: [op.dataset],
          key: 'datasets',
          conditional: true,
          datasetsApi: true,
          strictQuery: true,
          price: op.price,
          dataset: op.dataset,
          ...(op.refine ? { refine: op.refine } : {}),
        },
      },
      handler: async (request, reply) => {
        const payload = await op.read(deps, {
          params: membersOf(request.params),
          query: membersOf(request.query),
        });
        return json.send(reply, payload);
      },
    });
  }
}

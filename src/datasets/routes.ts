// Registers the eleven keyed dataset routes from their definitions.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../app/deps.js';
import { JsonBytes, KEYED_STATUSES, responses } from '../app/responses.js';
import { Envelope } from './envelope.js';
import { OPERATIONS } from './operations.js';

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
          description: `${op.description} Costs ${describePrice(op.id)}.`,
          tags: [op.dataset],
          keyed: true,
          datasetsApi: true,
          strictQuery: true,
          price: op.price,
          dataset: op.dataset,
          ...(op.refine ? { refine: op.refine } : {}),
        },
      },
      handler: async (request, reply) => {
        const payload = await op.read(deps, {
          params: (request.params ?? {}) as Record<string, unknown>,
          query: request.query as Record<string, unknown>,
        });
        return json.send(reply, payload);
      },
    });
  }
}

function describePrice(id: string): string {
  const op = OPERATIONS.find((o) => o.id === id);
  if (!op) return '';
  const base = op.price({});
  const ranged = op.price({ from: '2000-01-01' });
  const text = `${base.credits} credits (${base.callType} x${base.multiplier})`;
  return ranged.credits === base.credits
    ? text
    : `${text}; ${ranged.credits} credits (${ranged.callType} x${ranged.multiplier}) when from or to is given`;
}

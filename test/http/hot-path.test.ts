// Shortcuts on the request path keep their answers: the time text kept for a millisecond, and a route's JSON
// written to bytes once per payload object.
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { JsonBytes } from '../../src/http/responses.js';
import { isoTime } from '../../src/kernel/iso-time.js';

describe('isoTime', () => {
  it('is the ISO text of each time, also for another Date of the same millisecond', () => {
    const times = [
      '2026-11-21T16:00:00.000Z',
      '2026-11-21T16:00:00.000Z',
      '2026-11-21T16:00:00.001Z',
      '1999-12-31T23:59:59.999Z',
      '2026-11-21T16:00:00.001Z',
    ];
    for (const text of times) expect(isoTime(new Date(text))).toBe(text);
  });
});

describe('JsonBytes', () => {
  async function app() {
    let serialised = 0;
    const server = Fastify({ logger: false });
    // Counts the route serialiser's calls; the schema drops what it does not declare.
    server.setSerializerCompiler(() => (data) => {
      serialised += 1;
      return JSON.stringify({ rows: (data as { rows: unknown }).rows });
    });
    const json = new JsonBytes();
    const shared = { rows: [1, 2, 3], internal: 'not sent' };
    server.get(
      '/shared',
      { schema: { response: { 200: Type.Object({ rows: Type.Array(Type.Number()) }) } } },
      (_request, reply) => json.send(reply, shared),
    );
    server.get(
      '/fresh',
      { schema: { response: { 200: Type.Object({ rows: Type.Array(Type.Number()) }) } } },
      (_request, reply) => json.send(reply, { rows: [Math.random()] }),
    );
    await server.ready();
    return { server, shared, serialised: () => serialised };
  }

  it("sends the route's serialisation of a payload and writes it once per payload object", async () => {
    const { server, shared, serialised } = await app();
    const first = await server.inject('/shared');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.body).toBe('{"rows":[1,2,3]}');
    expect(first.headers['content-length']).toBe(String(first.body.length));
    // The same object again: the bytes written the first time (a change made since is not seen, which is
    // why payloads are never changed after they are sent).
    shared.rows.push(4);
    const second = await server.inject('/shared');
    expect(second.body).toBe('{"rows":[1,2,3]}');
    expect(serialised()).toBe(1);
    await server.close();
  });

  it('serialises every fresh payload', async () => {
    const { server, serialised } = await app();
    const bodies = new Set<string>();
    for (let i = 0; i < 3; i += 1) bodies.add((await server.inject('/fresh')).body);
    expect(bodies.size).toBe(3);
    expect(serialised()).toBe(3);
    await server.close();
  });
});

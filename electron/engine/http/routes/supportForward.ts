import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Replica } from '../../replica/replica.js';
import type { HubResponse } from '../../replica/hubFetch.js';
import { SupportProblem, forbidden } from '../../customObjects/problems.js';
import { supportActor } from '../supportReply.js';

/** Response headers of the hub passed on to the caller (not its connection or encoding headers). */
const PASSED_HEADERS = ['content-type', 'www-authenticate', 'retry-after', 'location', 'allow'];

/**
 * On a desktop replica the custom-objects interface is the hub's: custom
 * objects, their fields and records are not replicated (they are the hub's
 * only, and admins reshape them at any time), so each /api/v2 request, once
 * authenticated here, is sent on to the hub with the replica's own hub
 * credentials, and the hub's answer comes back as it is. Only the user the
 * replica is connected as may do this: the hub sees that user.
 * Offline, or before the replica is connected, the answer is 503.
 */
export function supportForwardRoutes(api: FastifyInstance, replica: Replica): void {
  api.all('/api/v2/*', async (request, reply) => {
    if (!(await replica.connectedAs(supportActor(request).userId))) {
      throw forbidden('This replica is connected to the hub as another user; custom objects are reached as that user only.');
    }
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const answer = await replica.forward({ method: request.method, path: request.url, body });
    if (!answer) {
      throw new SupportProblem(503, {
        error: 'HubUnreachable',
        description: 'Custom objects are kept on the team hub, which cannot be reached now (offline, or not connected yet); try again when online.',
      });
    }
    return passHubAnswer(reply, answer);
  });
}

/** The hub's answer to a request sent on to it, as the caller's: its status, its body, and the headers that concern the caller. */
export async function passHubAnswer(reply: FastifyReply, answer: HubResponse): Promise<FastifyReply> {
  for (const name of PASSED_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  const text = await answer.text();
  return reply.code(answer.status).send(text === '' ? undefined : text);
}

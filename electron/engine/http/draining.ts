import type { FastifyInstance } from 'fastify';

/**
 * While the app closes, every answer says `Connection: close`. Fastify's
 * close stops accepting, closes idle keep-alive connections and waits for
 * the requests in flight; but the connection of such a request would stay
 * open once answered (Node closes idle connections only as the close
 * begins), holding the close up until the keep-alive timeout. So the client
 * is told, and Node ends the connection after the answer.
 */
export function closeConnectionsWhenClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('Connection', 'close');
    return payload;
  });
}

import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** One open server-sent events stream: send events on it, learn when it closes. */
export interface EventStream {
  send(event: string, data: string): void;
  onClose(listener: () => void): void;
}

/**
 * Server-sent events for an app's routes (the replica's status to its
 * screens, the hub's change signal to its replicas). Each stream sends a
 * comment every `heartbeatMs`, so proxies keep it open and the listener can
 * tell a silent network from a quiet hub; open streams end when the server
 * closes (they would otherwise hold it open).
 */
export function eventStreams(app: FastifyInstance): (request: FastifyRequest, reply: FastifyReply, heartbeatMs: number) => EventStream {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });
  return (request, reply, heartbeatMs) => {
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no',
      'X-Request-Id': request.id,
    });
    const heartbeat = setInterval(() => out.write(': still here\n\n'), heartbeatMs);
    open.add(out);
    const closed: (() => void)[] = [];
    request.raw.on('close', () => {
      clearInterval(heartbeat);
      open.delete(out);
      for (const listener of closed) listener();
    });
    return {
      send: (event, data) => {
        out.write(`event: ${event}\ndata: ${data}\n\n`);
      },
      onClose: (listener) => closed.push(listener),
    };
  };
}

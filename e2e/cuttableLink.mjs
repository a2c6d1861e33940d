// A network cable the tests can cut: a TCP proxy on a port of its own that
// forwards to a hub. Cutting it drops every open connection and stops
// listening, so a new connection is refused, as when the hub's machine is
// unreachable; no browser or process is told to pretend it is offline.
// Healing listens again on the same port, so URLs (and a page's origin) stay valid.
// It can also be plugged into another server on the same origin (`to`): the hub after an upgrade, say.
import { connect, createServer } from 'node:net';
import { stablePort } from '../test/support/ports.ts';

/**
 * Opens a link to the hub listening on `hubPort` (127.0.0.1). Returns its `url`,
 * `cut()`, `heal()`, `to(port)` and `close()`; `cut` and `heal` resolve once the port refuses
 * or accepts again.
 */
export async function cuttableLink(hubPort) {
  const sockets = new Set();
  let target = hubPort;
  const forward = (client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  };
  let server = createServer(forward);
  const port = await stablePort();
  await listen(server, port);
  let connected = true;

  const cut = async () => {
    if (!connected) return;
    connected = false;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  const heal = async () => {
    if (connected) return;
    server = createServer(forward);
    await listen(server, port);
    connected = true;
  };
  /** From now on forwards to the server on `serverPort`; open connections are dropped (a browser opens new ones). */
  const to = (serverPort) => {
    target = serverPort;
    for (const socket of sockets) socket.destroy();
  };
  return { url: `http://127.0.0.1:${port}`, port, cut, heal, to, close: cut };
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

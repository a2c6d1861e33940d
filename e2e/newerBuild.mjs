// A hub as it answers once it has been upgraded, for the specs of the page's updates: an HTTP server in front of
// the hub that passes everything on, except that its service worker (`/sw.js`) is another build's (the same
// script with a line added, so the browser sees new bytes and installs it, as after an upgrade). Put behind a
// cuttable link (`link.to(port)`), it keeps the page's origin.
import { createServer, request as httpRequest } from 'node:http';

const SERVICE_WORKER = '/sw.js';
/** The hub's change stream, which a replica keeps open while it is in contact. */
const CHANGE_STREAM = '/v2/sync/events';

/**
 * Starts it in front of the hub listening on `hubPort`; returns its `port`, `close()` and `changeStreams()`, the
 * change streams open through it (a page's engine back in contact with the upgraded hub has one).
 */
export async function hubWithNewerBuild(hubPort) {
  let changeStreams = 0;
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://hub').pathname;
    const newer = path === SERVICE_WORKER;
    if (path === CHANGE_STREAM) {
      changeStreams += 1;
      response.on('close', () => (changeStreams -= 1));
    }
    const headers = { ...request.headers };
    // The whole script, uncompressed, so that a line can be added to it.
    if (newer) for (const name of ['accept-encoding', 'if-none-match', 'if-modified-since']) delete headers[name];
    const upstream = httpRequest({ host: '127.0.0.1', port: hubPort, method: request.method, path: request.url, headers }, (answer) => {
      if (!newer || answer.statusCode !== 200) {
        response.writeHead(answer.statusCode, answer.headers);
        answer.pipe(response);
        return;
      }
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat([...chunks, Buffer.from('\n// the next build\n')]);
        const { etag: _etag, 'last-modified': _modified, ...kept } = answer.headers;
        response.writeHead(200, { ...kept, 'content-length': body.length }).end(body);
      });
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    changeStreams: () => changeStreams,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}

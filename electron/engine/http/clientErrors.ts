import { randomUUID } from 'node:crypto';
import { STATUS_CODES, maxHeaderSize, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorEnvelope } from './envelope.js';
import { problem, type ApiProblem } from '../problems.js';
import { problemStatus } from './problemReply.js';
import { JSON_TYPE } from './reply.js';

/**
 * Node's HTTP parser refused a request before Fastify saw it (headers or
 * URL too large, broken framing, too slow): the answer is written straight
 * to the socket, in the error envelope with a fresh request id, and the
 * connection is closed (the parser cannot find the next request on it).
 * Fastify's `clientErrorHandler`, i.e. the server's `clientError` listener.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !canAnswer(socket)) {
    socket.destroy();
    return;
  }
  const failure = clientProblem(error);
  const status = problemStatus(failure);
  const logref = randomUUID();
  const body = JSON.stringify(errorEnvelope(status, failure.errors, logref));
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`, `Content-Type: ${JSON_TYPE}`, `Content-Length: ${Buffer.byteLength(body)}`,
    'Content-Language: en', `X-Request-Id: ${logref}`, 'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * As Node's own handler: only a writable socket whose current response (a
 * pipelined request's) has not started, so an answer cannot interleave with one.
 */
function canAnswer(socket: Socket): boolean {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return socket.writable && !socket.destroyed && !current?.headersSent;
}

function clientProblem(error: NodeJS.ErrnoException): ApiProblem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return problem('headers_too_large', `The request's URL and headers are larger than ${maxHeaderSize} bytes together.`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return problem('request_timeout', 'The request was not received in time.');
    default:
      return problem('malformed_request', `The request is not well-formed HTTP/1.1 (${error.code ?? 'unreadable'}).`);
  }
}

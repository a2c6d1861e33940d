import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { NO_ROUTE, routeLabel } from './routeLabel.js';
import type { LogLevel } from './logLevels.js';

export { LOG_LEVELS, type LogLevel } from './logLevels.js';

/**
 * How an app logs (`HttpOptions.logger`). Absent or false: not at all (tests,
 * the desktop app). true: warnings and errors only. `{ level }`: JSON lines
 * (pino, Fastify's logger) from that level up, one per request at `info`,
 * written to `stream`, by default stderr: a hub's stdout keeps only its own
 * plain lines, which scripts read ("Outpost hub listening on …").
 */
export type LoggerOption = boolean | { level: LogLevel; stream?: { write(line: string): unknown } };

/** Never written, wherever they appear in a logged object (pino's redact paths). */
const REDACTED = [
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
  ...['authorization', 'password', 'token', 'access_token', 'refresh_token', 'client_secret', 'code'].flatMap((key) => [key, `*.${key}`]),
];

/** Fastify's logging options for an app. */
export function loggerOptions(option: LoggerOption | undefined): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  if (!option) return { logger: false };
  const { level, stream = process.stderr } = option === true ? { level: 'warn' as const } : option;
  return {
    logger: {
      level,
      stream,
      redact: { paths: REDACTED, censor: '[redacted]' },
      // Fastify's own request serializer logs the raw URL and the client's address; the route pattern is enough.
      // (It may be handed Node's own request, without routeOptions, hence the care.)
      serializers: { req: (request: Partial<FastifyRequest>) => ({ method: request.method, route: request.routeOptions ? routeLabel(request as FastifyRequest) : NO_ROUTE }) },
    },
    logController: new RequestLines(['info', 'debug', 'trace'].includes(level)),
  };
}

/**
 * One line per request, when its answer has been sent (Fastify's default is
 * two, the first with the raw URL, which may hold a calendar feed's token or
 * a download link's signature): method, route pattern, status, duration.
 * Every line about a request carries its id as `logref`, the name an error
 * envelope gives it (and the value of X-Request-Id).
 */
class RequestLines extends LogController {
  /** `linesLogged`: whether the level logs `info` lines (a hub logging warnings only, the default, builds no line per request). */
  constructor(private readonly linesLogged: boolean) {
    super({ requestIdLogLabel: 'logref' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && !this.linesLogged) return;
    const line = { method: request.method, route: routeLabel(request), status: reply.statusCode, duration_ms: Number(reply.elapsedTime.toFixed(1)) };
    if (error) reply.log.error({ ...line, err: error }, 'request failed while answering');
    else reply.log.info(line, 'request');
  }
}

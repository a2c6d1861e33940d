// A module of their own: the command line checks --log-level before it loads Fastify (http/logging.ts), or without loading it at all.
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

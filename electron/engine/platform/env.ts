/** The process's environment variables, Node's side (env.web.ts: a browser has none). */
export function environment(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Engine } from '../../engine.js';
import { Invitations } from '../../auth/invitations.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../../auth/passwords.js';
import { formOf, OAuthError, type Form } from './oauth.js';
import { sharedRateLimitStore } from '../rateLimitStore.js';

/** Tries per address within the window: a link's token has 256 bits, so this only keeps the hashing (scrypt) cheap to abuse. */
const TRIES = 30;
const WINDOW = '15 minutes';

/**
 * The public side of one-time links (no token: the person holding one is not
 * signed in): look a link up, and accept it by choosing a password. Answers
 * are JSON in the OAuth error style of /oauth2 (`{"error", "error_description"}`,
 * 400), never cached; each address may try 30 times in 15 minutes.
 */
export async function invitationRoutes(app: FastifyInstance, engine: Engine): Promise<void> {
  const invitations = new Invitations(engine.ctx);
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      max: TRIES,
      timeWindow: WINDOW,
      keyGenerator: (request) => request.ip,
      // On a PostgreSQL hub the tries are every node's together.
      ...sharedRateLimitStore(engine, 'invitations'),
      errorResponseBuilder: (_request, context) =>
        new OAuthError(429, 'slow_down', `Too many tries from this address: try again in ${Math.ceil(context.ttl / 60_000)} minutes.`, { 'Retry-After': String(Math.ceil(context.ttl / 1000)) }),
    });
    // Its errors are answered by /oauth2's handler (sendOAuthFailure in oauth.ts, set in app.ts).

    // Who the link is for, so the screen can greet them and show the email they will sign in with.
    scope.post('/oauth2/invitations/lookup', async (request, reply) => {
      const form = formOf(request);
      const { user } = usable(form);
      return noStore(reply).send({ email: user.email, name: user.name, invited: user.invited === 1 });
    });

    scope.post('/oauth2/invitations/accept', async (request, reply) => {
      const form = formOf(request);
      const password = form.password ?? '';
      usable(form);
      if (password.length < MIN_PASSWORD_LENGTH) throw new OAuthError(400, 'invalid_request', `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`);
      const hash = await hashPassword(password);
      const user = await engine.ctx.commits.run(() => {
        // Checked again in the write: the same link sent twice at once is used once.
        const { invitationId, user: holder } = usable(form);
        invitations.markUsed(invitationId);
        engine.users.setPasswordFromLink(holder.id, hash);
        return holder;
      });
      return noStore(reply).send({ email: user.email, name: user.name });
    });
  });

  /** The link's user, when the link can still be used and its user is active; otherwise an invalid_grant saying why. */
  function usable(form: Form) {
    if (!form.token) throw new OAuthError(400, 'invalid_request', 'token is required: the code at the end of the link.');
    const redemption = invitations.check(form.token);
    if (!redemption.ok) throw new OAuthError(400, 'invalid_grant', redemption.reason);
    const user = engine.ctx.db.prepare('SELECT id, name, email, status, invited FROM users WHERE id = ? AND deleted_at IS NULL')
      .get(redemption.userId) as { id: number; name: string; email: string; status: string; invited: number } | undefined;
    if (!user || user.status !== 'active') throw new OAuthError(400, 'invalid_grant', 'This account is deactivated: ask your administrator.');
    return { invitationId: redemption.invitationId, user };
  }
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.code(200).header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

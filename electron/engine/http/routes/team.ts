import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { requireAdmin } from '../../auth/permissions.js';
import { FieldErrors, problem } from '../../problems.js';
import { dataOf, idParam, JSON_TYPE, queryOf, rejectQuery } from '../reply.js';
import { answerInTransaction } from '../writeRouteHooks.js';
import { inviteLink, Invitations, type IssuedInvitation } from '../../auth/invitations.js';
import { sendTestEmail } from '../../hubOnly.js';
import { TestEmailFailure } from '../../sequences/mail.js';

/**
 * Team administration (extensions, admins only; agents get 403): add a user
 * with a password or a one-time invite link, change a user's name, role,
 * status or password, issue a fresh link (resend an invite, reset a
 * password), and send a test email through the account's SMTP server.
 * None of them is replicable: on a desktop replica they answer 409, since
 * the team is managed on the hub.
 */
export function teamRoutes(app: FastifyInstance, engine: Engine): void {
  const invitations = new Invitations(engine.ctx);
  const { users } = engine;

  app.post('/v2/users', async (request, reply) => {
    const actor = adminOf(request);
    const checked = await users.checkNew(dataOf(request, 'user'));
    return answerInTransaction(engine.ctx.commits, request, reply, () => {
      const id = users.insert(checked, actor.userId);
      const invite = checked.passwordHash === null ? invitations.issue(id) : null;
      const meta = invite ? { invite_url: inviteUrl(request, invite), invite_expires_at: invite.expiresAt } : {};
      return `{"data":${users.json(id)},"meta":${JSON.stringify({ type: 'user', ...meta })}}`;
    });
  });

  app.put('/v2/users/:id', async (request, reply) => {
    const actor = adminOf(request);
    const id = idParam(request, 'user');
    const changes = await users.checkChanges(id, dataOf(request, 'user'));
    return answerInTransaction(engine.ctx.commits, request, reply, () => {
      users.applyChanges(id, changes, actor);
      // A password set by an admin ends any link still out for that user.
      if (changes.passwordHash !== undefined) invitations.revokeAll(id);
      return `{"data":${users.json(id)},"meta":{"type":"user"}}`;
    });
  });

  app.post('/v2/users/:id/invitation', async (request, reply) => {
    adminOf(request);
    rejectQuery(queryOf(request));
    const id = idParam(request, 'user');
    return answerInTransaction(engine.ctx.commits, request, reply, () => {
      const user = users.find(id);
      if (!user) throw problem('not_found', `The user with id ${id} was not found.`, '/id', 'user');
      if (user.status !== 'active') throw problem('conflict', `${user.name} is deactivated: reactivate them first.`, '/status', 'user');
      const invite = invitations.issue(id);
      return JSON.stringify({ data: { invite_url: inviteUrl(request, invite), expires_at: invite.expiresAt }, meta: { type: 'user_invitation' } });
    });
  });

  app.post('/v2/accounts/self/test_email', async (request, reply) => {
    const actor = adminOf(request);
    const to = recipientOf(dataOf(request, 'test_email'));
    const smtpUrl = engine.ctx.statements.get('SELECT smtp_url FROM account WHERE id = 1').pluck().get() as string | null;
    // An empty URL is a replica's stand-in for "set on the hub" (account.ts): a replica sends no mail.
    if (!smtpUrl) throw problem('missing', 'No mail server (smtp_url) is set: set one before sending a test email.', '/smtp_url', 'account');
    const sender = users.find(actor.userId)!;
    try {
      const messageId = await sendTestEmail(smtpUrl, { from: { name: sender.name, address: sender.email }, to });
      return reply.type(JSON_TYPE).send(JSON.stringify({ data: { sent: true, to, message_id: messageId }, meta: { type: 'test_email' } }));
    } catch (err) {
      if (!(err instanceof TestEmailFailure)) throw err;
      throw problem('incorrect_value', err.message, err.aboutRecipient ? '/to' : '/smtp_url', 'account');
    }
  });
}

function adminOf(request: FastifyRequest) {
  const actor = actorOf(request);
  requireAdmin(actor);
  return actor;
}

/** The link on the hub's own origin, where the web app's acceptance screen asks for a password. */
function inviteUrl(request: FastifyRequest, invite: IssuedInvitation): string {
  return inviteLink(`${request.protocol}://${request.host || 'localhost'}`, invite);
}

/** `to` of a test email: one address; anything else is a 422 on `/to`. */
function recipientOf(data: Record<string, unknown>): string {
  const errors = new FieldErrors('test_email');
  const unknown = Object.keys(data).filter((k) => k !== 'to');
  unknown.forEach((k) => errors.add(`/${k}`, 'unknown', `${k} is not a field of a test email.`));
  const to = data.to;
  if (to === undefined) errors.add('/to', 'missing', 'to is required: the address to send the test email to.');
  else if (typeof to !== 'string' || !/^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/.test(to.trim())) {
    errors.add('/to', 'incorrect_value', 'to must be an email address such as name@example.com.');
  }
  errors.throwIfAny();
  return (to as string).trim();
}

import { hmacSha256, randomBytes, timingSafeEqual } from '../platform/crypto.js';
import { toBase64Url, utf8Bytes } from '../bytes.js';
import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { hubSecret } from './secrets.js';

/** How long a CSRF token is accepted: enough to read a consent page and decide. */
export const CSRF_TOKEN_SECONDS = 60 * 60;

export interface CsrfToken {
  csrf_token: string;
  generated_at: string;
}

/**
 * CSRF tokens (spec: Using tokens): signed, so the hub keeps no state for
 * them — `<unix seconds>.<random>.<HMAC-SHA256>` in base64url. The consent
 * page puts one in its form and in a SameSite cookie and accepts the form
 * only when both agree and the signature and age check out.
 */
export class CsrfTokens {
  private readonly key: Uint8Array;

  constructor(private readonly ctx: EngineContext) {
    this.key = hubSecret(ctx, 'csrf');
  }

  issue(): CsrfToken {
    const now = this.ctx.clock.now();
    const body = `${Math.floor(now.getTime() / 1000)}.${toBase64Url(randomBytes(16))}`;
    return { csrf_token: `${body}.${this.sign(body)}`, generated_at: isoSeconds(now) };
  }

  /** True for a token this hub issued within the last hour. */
  verify(token: string | undefined): boolean {
    const match = token ? /^(\d{1,12})\.([\w-]{22})\.([\w-]{43})$/.exec(token) : null;
    if (!match) return false;
    if (!timingSafeEqual(utf8Bytes(match[3]), utf8Bytes(this.sign(`${match[1]}.${match[2]}`)))) return false;
    const age = this.ctx.clock.now().getTime() / 1000 - Number(match[1]);
    return age >= -60 && age <= CSRF_TOKEN_SECONDS;
  }

  private sign(body: string): string {
    return toBase64Url(hmacSha256(this.key, `csrf:${body}`));
  }
}

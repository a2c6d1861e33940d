import { useEffect } from 'react';
import { PLAN_LIMITS, type Account } from '../../shared/resources/account.js';
import { api } from '../api/client.js';
import { useSession } from '../session/sessionStore.js';

export interface CommerceAccess {
  isAdmin: boolean;
  /** Whether the account's plan has products and orders at all (the API answers 403 otherwise). */
  planIncludesCommerce: boolean;
  /** False when an admin turned off changes to products, orders and line items: everything is read only. */
  changesAllowed: boolean;
}

/** The notice shown where edit controls would be while an admin has turned changes off. */
export const CHANGES_OFF_NOTICE = 'An administrator has turned off changes to products, orders and line items: they are read only.';

/**
 * Who may change products and orders. The account is read again on entry
 * (an admin may have flipped the switch since this session signed in), and
 * the session's copy is replaced so every screen agrees. The API stays the
 * judge: a refusal it answers is shown as it is.
 */
export function useCommerceAccess(): CommerceAccess {
  const { user, account } = useSession();
  useEffect(() => {
    let live = true;
    api.get<Account>('/v2/accounts/self').then((fresh) => live && useSession.setState({ account: fresh }), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  return {
    isAdmin: user?.role === 'admin',
    planIncludesCommerce: account ? PLAN_LIMITS[account.plan].commerce : true,
    changesAllowed: account?.commerce_changes !== 'disabled',
  };
}

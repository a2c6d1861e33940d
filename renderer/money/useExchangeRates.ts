import { useEffect, useMemo } from 'react';
import { create } from 'zustand';
import type { ExchangeRate } from '../../shared/resources/exchangeRate.js';
import type { RateTable } from '../../shared/money.js';
import { api } from '../api/client.js';
import { useSession } from '../session/sessionStore.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';

interface RatesState {
  /** null until loaded (or when they could not be). */
  rates: ExchangeRate[] | null;
  loading: boolean;
  load(): Promise<void>;
  /** Replaces the copy after a change in Settings, so every screen converts with it at once. */
  replace(rates: ExchangeRate[]): void;
}

/** The account's exchange rates, loaded once for every screen that converts totals. */
export const useRatesStore = create<RatesState>((set, get) => ({
  rates: null,
  loading: false,
  async load() {
    if (get().loading) return;
    set({ loading: true });
    try {
      const list = await api.list<ExchangeRate>('/v2/exchange_rates');
      set({ rates: list.items.map((i) => i.data) });
    } catch {
      // Totals then show their currencies apart, as for a currency without a rate.
    } finally {
      set({ loading: false });
    }
  },
  replace(rates) {
    set({ rates });
  },
}));

/** The rates and the currency totals are converted into (the account's); loads them on first use and after a sync. */
export function useExchangeRates(): { rates: ExchangeRate[] | null; table: RateTable; into: string } {
  const rates = useRatesStore((s) => s.rates);
  const into = useSession((s) => s.account?.currency ?? 'USD');
  useEffect(() => {
    if (useRatesStore.getState().rates === null) void useRatesStore.getState().load();
  }, []);
  useRefreshOnSync(() => void useRatesStore.getState().load());
  const table = useMemo(() => new Map((rates ?? []).map((r) => [r.currency, r.rate])), [rates]);
  return { rates, table, into };
}

import { useCallback, useMemo, useState } from 'react';
import type { RowSelection } from '../lists/DataTable.js';

/** Rows ticked on a list, or the whole list ("all N matching"). */
export interface Selection {
  ids: ReadonlySet<number>;
  /** The whole list the filters select, not only the rows ticked. */
  allMatching: boolean;
  has(id: number): boolean;
  toggle(id: number): void;
  /** Ticks (or unticks) these rows: "select all on this page". */
  setMany(ids: readonly number[], on: boolean): void;
  selectAllMatching(): void;
  clear(): void;
}

interface Ticked {
  /** The list these rows were ticked on. */
  key: string;
  ids: ReadonlySet<number>;
  allMatching: boolean;
}

/** A list's selection; a new `listKey` (other filters, another sort) starts it over, as the rows it named are no longer the list. */
export function useSelection(listKey: string): Selection {
  const [ticked, setTicked] = useState<Ticked>({ key: listKey, ids: new Set(), allMatching: false });
  // Ticks made on another list count for nothing here (read as empty, not reset by an effect).
  const current = ticked.key === listKey ? ticked : { key: listKey, ids: new Set<number>(), allMatching: false };
  const { ids, allMatching } = current;
  const change = useCallback((edit: (ids: Set<number>) => void) => {
    setTicked((before) => {
      const next = new Set(before.key === listKey ? before.ids : []);
      edit(next);
      return { key: listKey, ids: next, allMatching: false };
    });
  }, [listKey]);
  const toggle = useCallback((id: number) => change((next) => {
    if (!next.delete(id)) next.add(id);
  }), [change]);
  const setMany = useCallback((many: readonly number[], on: boolean) => change((next) => {
    for (const id of many) {
      if (on) next.add(id);
      else next.delete(id);
    }
  }), [change]);
  const clear = useCallback(() => setTicked({ key: listKey, ids: new Set(), allMatching: false }), [listKey]);
  const selectAllMatching = useCallback(() => setTicked((before) => ({ ...before, key: listKey, allMatching: true })), [listKey]);
  return useMemo(() => ({
    ids, allMatching, has: (id: number) => allMatching || ids.has(id), toggle, setMany, selectAllMatching, clear,
  }), [ids, allMatching, toggle, setMany, selectAllMatching, clear]);
}

/** A DataTable's checkboxes over a selection: each row by its record's id, and the page's rows together. */
export function rowSelection<T extends { id: number }>(selection: Selection, rows: readonly T[]): RowSelection<T> {
  const pageSelected = rows.length > 0 && rows.every((row) => selection.has(row.id));
  return {
    isSelected: (row) => selection.has(row.id),
    toggle: (row) => selection.toggle(row.id),
    pageSelected,
    togglePage: () => selection.setMany(rows.map((row) => row.id), !pageSelected),
  };
}

import type { EngineContext } from '../context.js';
import { recordNotFound } from './problems.js';

/** A custom object's row as stored (migration 18). */
export interface CustomObjectRow {
  id: number;
  key: string;
  title: string;
  title_pluralized: string;
  description: string | null;
  created_by_user_id: number | null;
  updated_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

/** The object a path's `{custom_object_key}` names, or the interface's 404. */
export function requireCustomObject(ctx: EngineContext, key: string): CustomObjectRow {
  const row = ctx.statements.get('SELECT * FROM custom_objects WHERE key = ?').get(key) as CustomObjectRow | undefined;
  if (!row) throw recordNotFound(`Custom object '${key}' not found`);
  return row;
}

import { create } from 'zustand';
import { supportApi } from '../api/supportClient.js';
import type { CustomObject } from './types.js';
import { refusalText } from '../api/formErrors.js';

interface CustomObjectsState {
  /** The account's objects in creation order, or null until the first answer. */
  objects: CustomObject[] | null;
  /** Why the list could not be loaded, or null. */
  error: string | null;
  /** Loads the list again (after an admin's change, say); every screen and the navigation follow. */
  load(): Promise<void>;
}

/**
 * The account's custom objects: the navigation lists them, the admin screen
 * changes them, and the record screens take their titles from here. One
 * copy, so a new object appears in the navigation as soon as it is saved.
 */
export const useCustomObjects = create<CustomObjectsState>((set) => ({
  objects: null,
  error: null,
  async load() {
    try {
      const answer = await supportApi.get<{ custom_objects: CustomObject[] }>('/custom_objects');
      set({ objects: answer.custom_objects, error: null });
    } catch (err) {
      set({ error: refusalText(err, 'The custom objects could not be loaded.') });
    }
  },
}));

/** The object with this key, from the shared list (undefined while loading or when there is none). */
export function useCustomObject(key: string): CustomObject | undefined {
  return useCustomObjects((s) => s.objects?.find((o) => o.key === key));
}

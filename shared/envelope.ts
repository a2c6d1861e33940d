/**
 * The wire shapes of the CRM interface (spec: "Common conventions").
 * Used by the engine to build responses and by the renderer's typed client
 * to read them, so both sides agree on one definition.
 */

export interface ResourceEnvelope<T, TType extends string = string> {
  data: T;
  meta: { type: TType };
}

/** `self` is always present; the others only where they apply. */
export interface CollectionLinks {
  self: string;
  first_page?: string;
  prev_page?: string;
  next_page?: string;
}

export interface CollectionEnvelope<T, TType extends string = string> {
  items: ResourceEnvelope<T, TType>[];
  /** `total_count`: every match of the list, only when asked with `count=true` (an Outpost extension). */
  meta: { type: 'collection'; count: number; total_count?: number; links: CollectionLinks };
}

/** Request body for create and update: `data`, optionally `meta.type`. */
export interface WriteBody<T> {
  data: T;
  meta?: { type?: string };
}

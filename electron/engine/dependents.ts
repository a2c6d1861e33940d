export type DeletionHandler = (resourceType: string, resourceId: number, actorId: number) => void;

/**
 * Records that belong to another one (the tasks of a contact): the module
 * that owns them registers here and removes them when their parent is
 * deleted, inside the parent's transaction. Parents need not know their dependents.
 */
/** A contact or lead merged into another (resources/merging.ts): what named `fromId` should name `toId`. */
export type MergeHandler = (resourceType: string, fromId: number, toId: number, actorId: number) => void;

export class Dependents {
  private readonly handlers: DeletionHandler[] = [];
  private readonly mergeHandlers: MergeHandler[] = [];

  onDelete(handler: DeletionHandler): void {
    this.handlers.push(handler);
  }

  deleted(resourceType: string, resourceId: number, actorId: number): void {
    for (const handler of this.handlers) handler(resourceType, resourceId, actorId);
  }

  /** Records outside the change-logged tables that name a record (custom objects' lookups) follow a merge through here. */
  onMerge(handler: MergeHandler): void {
    this.mergeHandlers.push(handler);
  }

  merged(resourceType: string, fromId: number, toId: number, actorId: number): void {
    for (const handler of this.mergeHandlers) handler(resourceType, fromId, toId, actorId);
  }
}

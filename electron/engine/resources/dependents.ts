export type DeletionHandler = (resourceType: string, resourceId: number, actorId: number) => void;

/**
 * Records that belong to another one (the tasks of a contact): the module
 * that owns them registers here and removes them when their parent is
 * deleted, inside the parent's transaction. Parents need not know their dependents.
 */
export class Dependents {
  private readonly handlers: DeletionHandler[] = [];

  onDelete(handler: DeletionHandler): void {
    this.handlers.push(handler);
  }

  deleted(resourceType: string, resourceId: number, actorId: number): void {
    for (const handler of this.handlers) handler(resourceType, resourceId, actorId);
  }
}

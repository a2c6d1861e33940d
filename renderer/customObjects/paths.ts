/** The app's paths of the custom-object screens (the hub serves the web UI on /objects/* and /settings/*). */
export const ADMIN_PATH = '/settings/custom-objects';
export const OBJECTS_PATH = '/objects';

const segment = encodeURIComponent;

/** An object's definition and fields, for admins (agents read them). */
export const adminObjectPath = (key: string) => `${ADMIN_PATH}/${segment(key)}`;
/** An object's records. */
export const recordsPath = (key: string) => `${OBJECTS_PATH}/${segment(key)}`;
export const newRecordPath = (key: string) => `${recordsPath(key)}/new`;
export const editRecordPath = (key: string, id: string) => `${recordsPath(key)}/${segment(id)}/edit`;

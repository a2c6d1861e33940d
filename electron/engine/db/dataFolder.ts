/**
 * What a data folder holds (the desktop app's, or the one `outpost serve`
 * opens): the SQLite database and, beside it, uploaded documents' files.
 * Storage names them; the engine, backups and `outpost migrate` read them here.
 */
export const DATABASE_FILE = 'outpost.sqlite';

/** Uploaded documents' files, one per document named by its id (resources/documentContents.ts). */
export const DOCUMENTS_FOLDER = 'documents';

// A helper of the web app's engine worker (db/sqlThreads.web.ts), started during a first sync: at its end it
// builds search indexes from a copy of the database while the engine builds the rest, as the desktop replica
// does on two threads. It answers one build and is ended by its starter.
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { buildSearchIndexesOfCopy } from '../engine/db/searchBuildCopy.js';
import type { SearchBuildAnswer, SearchBuildAsk } from '../engine/db/sqlThreads.web.js';

// Loaded at once, while the first sync goes on.
const sqlite = sqlite3InitModule();

self.onmessage = async ({ data }: MessageEvent<SearchBuildAsk>) => {
  let answer: SearchBuildAnswer;
  try {
    answer = { built: await buildSearchIndexesOfCopy(await sqlite, data.file, data.indexes) };
  } catch (err) {
    answer = { error: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(answer, { transfer: 'built' in answer ? [answer.built.buffer] : [] });
};

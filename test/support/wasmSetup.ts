import { prepareSqlite } from './wasmSqlite.js';

// The wasm run's platform loads SQLite's WebAssembly once (async); every open after it is synchronous.
await prepareSqlite();

import { beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import sqlite3InitModule, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { asSqliteDb, storageFault, type SqliteDb } from '../../electron/engine/db/database.js';
import { WasmDatabase, type OoDatabase } from '../../electron/engine/db/wasmDatabase.js';

/**
 * The wasm adapter (db/wasmDatabase.ts) against better-sqlite3: the same
 * statements on an in-memory database of each, the same assertions, so what
 * the engine relies on of better-sqlite3 (results and their types, BigInt,
 * parameters, transactions, errors' codes, functions, pragmas) holds on both.
 */

let sqlite3: Sqlite3Static;
beforeAll(async () => {
  sqlite3 = await sqlite3InitModule();
});

const openNative = (): SqliteDb => asSqliteDb(new Database(':memory:'));
function openWasm(): SqliteDb {
  const DB = sqlite3.oo1.DB as unknown as new (filename: string) => OoDatabase;
  return asSqliteDb(new WasmDatabase(sqlite3, new DB(':memory:'), { name: ':memory:' }));
}

/** Runs `test` on a fresh database of each kind, with a small table. */
function onBoth(title: string, test: (db: SqliteDb) => void): void {
  it.each([
    ['better-sqlite3', openNative],
    ['sqlite-wasm', openWasm],
  ])(`${title} (%s)`, (_, open) => {
    const db = open();
    try {
      db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE, amount INTEGER, price REAL, data BLOB)');
      test(db);
    } finally {
      db.close();
    }
  });
}

/** The error `work` throws. */
function thrown(work: () => unknown): Error & { code?: string } {
  try {
    work();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('nothing was thrown');
}

describe('results', () => {
  onBoth('come back with their SQLite types: integers and reals as numbers, text, blobs as Buffers, null', (db) => {
    db.prepare('INSERT INTO items (name, amount, price, data) VALUES (?, ?, ?, ?)').run('Ada', 3, 2.5, Buffer.from([1, 2, 3]));
    db.prepare('INSERT INTO items (name) VALUES (?)').run(null);
    expect(db.prepare('SELECT name, amount, price, data FROM items ORDER BY id').all()).toEqual([
      { name: 'Ada', amount: 3, price: 2.5, data: Buffer.from([1, 2, 3]) },
      { name: null, amount: null, price: null, data: null },
    ]);
    expect(Buffer.isBuffer((db.prepare('SELECT data FROM items WHERE id = 1').get() as { data: unknown }).data)).toBe(true);
    expect(db.prepare('SELECT id FROM items WHERE id = 99').get()).toBeUndefined();
    expect(db.prepare('SELECT id FROM items WHERE id = 99').all()).toEqual([]);
  });

  onBoth('bind numbers as reals, bigints as integers, undefined as null, and empty text and blobs as themselves', (db) => {
    expect(db.prepare('SELECT typeof(?) AS a, typeof(?) AS b, typeof(?) AS c, ? AS d, ? AS e').get(1, 2n, undefined, '', Buffer.alloc(0)))
      .toEqual({ a: 'real', b: 'integer', c: 'null', d: '', e: Buffer.alloc(0) });
    expect(db.prepare('SELECT ? AS text').get('é — 日本')).toEqual({ text: 'é — 日本' });
  });

  onBoth('keep texts whole: several in one statement, long ones, NUL and characters beyond the BMP inside, names not in ASCII', (db) => {
    const long = 'ü😀x'.repeat(40_000);
    const texts = ['first', long, 'a\u0000b', '', '𝄞 clef', 'second long '.repeat(2_000)];
    db.prepare('INSERT INTO items (name, data) VALUES (?, ?), (?, ?), (?, ?)').run(texts[0], null, texts[1], null, texts[2], null);
    db.prepare('INSERT INTO items (name) VALUES (?), (?), (?)').run(texts.slice(3));
    expect(db.prepare('SELECT name FROM items ORDER BY id').pluck().all()).toEqual(texts);
    expect(db.prepare('SELECT length(name) FROM items WHERE name = ?').pluck().get(long)).toBe([...long].length);
    expect(db.prepare('SELECT 1 AS "größe 日本"').get()).toEqual({ 'größe 日本': 1 });
  });

  onBoth('are whole rows, their first value (pluck) or their values in order (raw), switched on and off', (db) => {
    db.prepare('INSERT INTO items (name, amount) VALUES (?, ?), (?, ?)').run('a', 1, 'b', 2);
    const stmt = db.prepare('SELECT name, amount FROM items ORDER BY id');
    expect(stmt.pluck().all()).toEqual(['a', 'b']);
    expect(stmt.raw().all()).toEqual([['a', 1], ['b', 2]]);
    expect(stmt.raw(false).get()).toEqual({ name: 'a', amount: 1 });
    expect(stmt.pluck().pluck(false).get()).toEqual({ name: 'a', amount: 1 });
    expect([...stmt.pluck().iterate()]).toEqual(['a', 'b']);
    expect(stmt.columns().map((c) => c.name)).toEqual(['name', 'amount']);
  });

  onBoth('are BigInts with safeIntegers, exact past 2^53, and numbers without', (db) => {
    const big = 2n ** 53n + 1n;
    const insert = db.prepare('INSERT INTO items (amount) VALUES (?)');
    expect(insert.run(big)).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(insert.safeIntegers().run(7n)).toEqual({ changes: 1, lastInsertRowid: 2n });
    const read = db.prepare('SELECT id, amount FROM items ORDER BY id');
    expect(read.safeIntegers().all()).toEqual([{ id: 1n, amount: big }, { id: 2n, amount: 7n }]);
    expect(read.safeIntegers(false).get()).toEqual({ id: 1, amount: Number(big) });
    expect(db.prepare('SELECT sum(amount) FROM items').pluck().safeIntegers().get()).toBe(big + 7n);
    expect(thrown(() => insert.run(2n ** 64n))).toBeInstanceOf(RangeError);
  });
});

describe('parameters', () => {
  onBoth('are taken by name from one object (@name, :name, $name) and in order for ?', (db) => {
    expect(db.prepare('SELECT @a AS a, :b AS b, $c AS c, ? AS d').get({ a: 1, b: 'two', c: null }, 4)).toEqual({ a: 1, b: 'two', c: null, d: 4 });
    expect(db.prepare('SELECT ? AS a, ? AS b, ? AS c').get([1, 2], 3)).toEqual({ a: 1, b: 2, c: 3 });
    expect(db.prepare('SELECT :a AS a').get({ a: 1, unused: 2 })).toEqual({ a: 1 });
  });

  onBoth('refuse what does not fit, as better-sqlite3 does', (db) => {
    const missing = thrown(() => db.prepare('SELECT :a').get({ b: 1 }));
    expect([missing.constructor, missing.message]).toEqual([RangeError, 'Missing named parameter "a"']);
    const few = thrown(() => db.prepare('SELECT ?, ?').get(1));
    expect([few.constructor, few.message]).toEqual([RangeError, 'Too few parameter values were provided']);
    const many = thrown(() => db.prepare('SELECT ?').get(1, 2));
    expect([many.constructor, many.message]).toEqual([RangeError, 'Too many parameter values were provided']);
    const wrong = thrown(() => db.prepare('SELECT ?').get(true));
    expect([wrong.constructor, wrong.message]).toEqual([TypeError, 'SQLite3 can only bind numbers, strings, bigints, buffers, and null']);
    expect(thrown(() => db.prepare('INSERT INTO items (name) VALUES (1)').get())).toBeInstanceOf(TypeError);
  });
});

describe('writes', () => {
  onBoth('tell their changes and the last rowid, and no changes for a statement that changed no row', (db) => {
    expect(db.prepare("INSERT INTO items (name) VALUES ('a'), ('b')").run()).toEqual({ changes: 2, lastInsertRowid: 2 });
    expect(db.prepare("UPDATE items SET amount = 1 WHERE name = 'a'").run()).toEqual({ changes: 1, lastInsertRowid: 2 });
    expect(db.prepare('CREATE TABLE other (x)').run().changes).toBe(0);
    expect(db.prepare('UPDATE items SET amount = 2 WHERE id = 99').run().changes).toBe(0);
  });

  onBoth('run statements of one SQL text from several Statements, one inside the iteration of another', (db) => {
    db.exec("INSERT INTO items (name) VALUES ('a'), ('b'), ('c')");
    const names: unknown[] = [];
    for (const id of db.prepare('SELECT id FROM items ORDER BY id').pluck().iterate()) {
      names.push(db.prepare('SELECT name FROM items WHERE id = ?').pluck().get(id));
      names.push(db.prepare('SELECT count(*) FROM items ORDER BY id').pluck().get());
    }
    expect(names).toEqual(['a', 3, 'b', 3, 'c', 3]);
  });
});

describe('transactions', () => {
  onBoth('commit what the function wrote and give back what it returned', (db) => {
    const write = db.transaction((name: string) => {
      expect(db.inTransaction).toBe(true);
      return db.prepare('INSERT INTO items (name) VALUES (?)').run(name).lastInsertRowid;
    });
    expect(write('a')).toBe(1);
    expect(write.immediate('b')).toBe(2);
    expect(write.deferred('c')).toBe(3);
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(3);
  });

  onBoth('roll back all of it when the function throws, and throw the same error', (db) => {
    const failure = new Error('no');
    const write = db.transaction(() => {
      db.prepare("INSERT INTO items (name) VALUES ('a')").run();
      throw failure;
    });
    expect(thrown(() => write())).toBe(failure);
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(0);
  });

  onBoth('nest as savepoints: a failed inner part rolls back alone, the outer one commits', (db) => {
    const insert = db.prepare('INSERT INTO items (name) VALUES (?)');
    const inner = db.transaction((name: string) => {
      insert.run(name);
      insert.run(name); // UNIQUE: fails, and takes the first insert of this part with it
    });
    const outer = db.transaction(() => {
      insert.run('kept');
      expect(thrown(() => inner('dropped')).code).toBe('SQLITE_CONSTRAINT_UNIQUE');
      expect(db.inTransaction).toBe(true);
      // .immediate inside a transaction is a savepoint too.
      db.transaction(() => insert.run('also kept')).immediate();
    });
    outer();
    expect(db.prepare('SELECT name FROM items ORDER BY id').pluck().all()).toEqual(['kept', 'also kept']);
  });

  onBoth('refuse a function that returns a promise, and roll it back', (db) => {
    const write = db.transaction(() => {
      db.prepare("INSERT INTO items (name) VALUES ('a')").run();
      return Promise.resolve();
    });
    const err = thrown(() => write());
    expect([err.constructor, err.message]).toEqual([TypeError, 'Transaction function cannot return a promise']);
    expect(db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(0);
  });
});

describe('errors', () => {
  onBoth("carry SQLite's message and its extended result code's name", (db) => {
    db.prepare("INSERT INTO items (name) VALUES ('a')").run();
    const unique = thrown(() => db.prepare("INSERT INTO items (name) VALUES ('a')").run());
    expect([unique.name, unique.code, unique.message]).toEqual(['SqliteError', 'SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: items.name']);
    const table = thrown(() => db.prepare('SELECT * FROM nowhere').all());
    expect([table.code, table.message]).toEqual(['SQLITE_ERROR', 'no such table: nowhere']);
    const syntax = thrown(() => db.exec('SELEC 1'));
    expect([syntax.code, syntax.message]).toEqual(['SQLITE_ERROR', 'near "SELEC": syntax error']);
    expect(storageFault(unique)).toBeNull();
  });

  onBoth('name a full database SQLITE_FULL, which storageFault recognises', (db) => {
    db.pragma('max_page_count = 4');
    const full = thrown(() => db.prepare('INSERT INTO items (name) VALUES (?)').run('x'.repeat(100_000)));
    expect(full.code).toBe('SQLITE_FULL');
    expect(storageFault(new Error('commit failed', { cause: full }))).toBe(full);
  });
});

describe('functions', () => {
  onBoth('are called with their arguments (as many as declared, or any with varargs), deterministic or not', (db) => {
    db.function('twice', { deterministic: true }, (x: number) => x * 2);
    db.function('joined', { deterministic: true, varargs: true }, (...parts: unknown[]) => parts.join('+'));
    db.function('kind', { deterministic: false }, (value: unknown) => (Buffer.isBuffer(value) ? 'buffer' : typeof value));
    expect(db.prepare("SELECT twice(21) AS a, joined(1, 'b', 2.5) AS b, kind(x'01') AS c, kind(3) AS d, kind(NULL) AS e").get())
      .toEqual({ a: 42, b: '1+b+2.5', c: 'buffer', d: 'number', e: 'object' });
    expect(thrown(() => db.prepare('SELECT twice(1, 2)').get()).code).toBe('SQLITE_ERROR');
  });

  onBoth('give back what they return as better-sqlite3 keeps it: numbers as reals, bigints as integers, text and blobs whole', (db) => {
    const long = 'ü😀 '.repeat(30_000);
    db.function('echo', { deterministic: true }, (value: unknown) => value);
    db.function('big', { deterministic: true }, () => 2n ** 40n);
    db.function('empty_blob', { deterministic: true }, () => Buffer.alloc(0));
    expect(db.prepare("SELECT typeof(echo(2)) AS a, typeof(big()) AS b, big() AS c, echo(?) AS d, echo(?) AS e, echo(x'0102') AS f, typeof(empty_blob()) AS g").get('é\u0000x', long))
      .toEqual({ a: 'real', b: 'integer', c: 2 ** 40, d: 'é\u0000x', e: long, f: Buffer.from([1, 2]), g: 'blob' });
    expect(db.prepare('SELECT count(*) FROM (SELECT echo(value) AS v FROM json_each(?) WHERE v IS NOT NULL)').pluck().get(JSON.stringify(Array.from({ length: 5000 }, (_, i) => `word ${i}`)))).toBe(5000);
  });

  onBoth('refuse a result SQLite cannot hold: an object, a boolean, a bigint beyond 64 bits', (db) => {
    db.function('object', { deterministic: false }, () => ({}));
    db.function('yes', { deterministic: false }, () => true);
    db.function('huge', { deterministic: false }, () => 2n ** 70n);
    expect([thrown(() => db.prepare('SELECT object()').get())].map((e) => [e.constructor, e.message])).toEqual([[TypeError, 'User-defined function object() returned an invalid value']]);
    expect(thrown(() => db.prepare('SELECT yes()').get())).toBeInstanceOf(TypeError);
    expect([thrown(() => db.prepare('SELECT huge()').get())].map((e) => [e.constructor, e.message])).toEqual([[RangeError, 'User-defined function huge() returned a bigint that was too big']]);
  });

  onBoth('throw their own error out of the statement', (db) => {
    const failure = new Error('from the function');
    db.function('fails', { deterministic: false }, () => {
      throw failure;
    });
    expect(thrown(() => db.prepare('SELECT fails()').get())).toBe(failure);
    expect(thrown(() => db.exec('SELECT fails()'))).toBe(failure);
    db.function('no_value', { deterministic: false }, () => undefined);
    expect(db.prepare('SELECT no_value() AS n').get()).toEqual({ n: null });
  });
});

describe('pragmas', () => {
  onBoth('give their rows, or the first value with simple, and nothing for a setting', (db) => {
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.pragma('user_version = 7')).toEqual([]);
    expect(db.pragma('user_version')).toEqual([{ user_version: 7 }]);
    expect((db.pragma('table_info(items)') as { name: string }[]).map((c) => c.name)).toEqual(['id', 'name', 'amount', 'price', 'data']);
    expect(db.pragma('foreign_keys = ON', { simple: true })).toBeUndefined();
  });
});

describe('the connection', () => {
  onBoth('runs several statements with exec, knows its name, and is closed for good after close', (db) => {
    expect(db.exec("INSERT INTO items (name) VALUES ('a'); INSERT INTO items (name) VALUES ('b')")).toBe(db);
    expect(db.prepare('SELECT count(*) FROM items').pluck().get()).toBe(2);
    expect([db.name, db.open]).toEqual([':memory:', true]);
    const stmt = db.prepare('SELECT 1');
    db.close();
    expect(db.open).toBe(false);
    expect(thrown(() => stmt.get())).toBeInstanceOf(TypeError);
    expect(thrown(() => db.prepare('SELECT 1'))).toBeInstanceOf(TypeError);
  });
});

// postgresjs_test.mjs — postgres.js (`postgres`, pinned in package.json)
// against a Strata server (PG* environment from tests/harness/harness_run).
// postgres.js prepares every query as a named statement (its default
// `prepare: true`), learns parameter types from Describe, fetches the array
// types from pg_type at connect, and uses Execute row limits for cursors:
// checks here cover parameterised and named prepared queries (and unnamed
// with prepare: false), type round trips (postgres.js exchanges text
// formats only: it requests no binary results), transactions with
// sql.begin, cursors (portals read 10 rows at a time), errors, and a pool of
// 10 connections × 1,000 queries. Run by tests/clients/node/run.sh.
import postgres from 'postgres';
import { check, checkRun, checkError, finish, setServerVersion } from './check.mjs';

const opts = { onnotice: () => {}, max: 1 };

async function queries(sql) {
  await checkRun('simple tagged query', 'SELECT 1 AS one', async () =>
    [[...(await sql`SELECT 1 AS one`)], [{ one: 1 }]]);
  await checkRun('parameters with types from Describe', 'SELECT $1::int + $2 AS s, $3 AS t', async () =>
    [[...(await sql`SELECT ${2}::int + ${3} AS s, ${'x'}::text AS t`)], [{ s: 5, t: 'x' }]]);
  await sql`CREATE TABLE pjs_kv (k int PRIMARY KEY, v text)`;
  for (let i = 1; i <= 50; i++) await sql`INSERT INTO pjs_kv VALUES (${i}, ${'v' + i})`;
  const got = [];
  for (const k of [1, 25, 50, 51]) got.push((await sql`SELECT v FROM pjs_kv WHERE k = ${k}`)[0]?.v ?? null);
  check('named prepared statements reused (50 inserts, 4 lookups)', 'SELECT v FROM pjs_kv WHERE k = $1',
    got, ['v1', 'v25', 'v50', null]);
  await checkRun('unnamed statement (prepare: false)', 'SELECT count(*)::int AS n FROM pjs_kv', async () => {
    const r = await sql`SELECT count(*)::int AS n, sum(k)::int AS s FROM pjs_kv`.execute();
    return [[...r], [{ n: 50, s: 1275 }]];
  });
  await checkRun('dynamic multi-row insert helper', 'INSERT INTO pjs_kv (k, v) VALUES ($1,$2),($3,$4)', async () => {
    const r = await sql`INSERT INTO pjs_kv ${sql([{ k: 60, v: 'a' }, { k: 61, v: 'b' }])}`;
    return [r.count, 2];
  });
  await checkRun('IN list of parameters', 'SELECT k FROM pjs_kv WHERE k IN ($1,$2,$3) ORDER BY k', async () =>
    [(await sql`SELECT k FROM pjs_kv WHERE k IN ${sql([3, 60, 99])} ORDER BY k`).map((r) => r.k), [3, 60]]);
  await checkRun('sql.unsafe simple query, two statements', 'SELECT 1 AS a; SELECT 2 AS b', async () =>
    [(await sql.unsafe('SELECT 1 AS a; SELECT 2 AS b')).map((r) => [...r]), [[{ a: 1 }], [{ b: 2 }]]]);
  await checkRun('cursor: 95 rows in portions of 10 (Execute row limit)',
    'SELECT g FROM generate_series(1, 95) g', async () => {
      const sizes = [];
      let sum = 0;
      await sql.begin(async (tx) => {
        for await (const rows of tx`SELECT g FROM generate_series(1, 95) g`.cursor(10)) {
          sizes.push(rows.length);
          for (const r of rows) sum += r.g;
        }
      });
      return [[sizes.length, sizes[0], sizes[9], sum], [10, 10, 5, 4560]];
    });
  await checkError('error: unknown table gives 42P01', 'SELECT * FROM no_such_table',
    () => sql`SELECT * FROM no_such_table`, '42P01');
  await checkError('error: division by zero gives 22012', 'SELECT $1::int / 0',
    () => sql`SELECT ${1}::int / 0`, '22012');
}

async function types(sql) {
  await sql`CREATE TABLE pjs_types (id int, b boolean, i2 smallint, i4 integer, i8 bigint,
    f4 real, f8 double precision, n numeric(12,3), t text, d date, ts timestamp, tstz timestamptz,
    u uuid, by bytea, jb jsonb, ai integer[], at text[])`;
  const row = { id: 1, b: true, i2: -32768, i4: 2147483647, i8: '9007199254740993', f4: 1.5,
    f8: -2.25e-300, n: '123456789.125', t: 'héllo', d: new Date('2024-02-29T00:00:00Z'),
    ts: new Date('2024-02-29T13:14:15.123Z'), tstz: new Date('2024-02-29T13:14:15.5Z'),
    u: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', by: Buffer.from([0, 1, 2, 255]), jb: { k: 'v', n: [1, 2] },
    ai: [1, 2, 3], at: ['x', 'y z'] };
  const ins = 'INSERT INTO pjs_types (id, b, ...) VALUES ($1, $2, ...)';
  await checkRun('insert of every type through parameters', ins, async () => {
    const r = await sql`INSERT INTO pjs_types ${sql({ ...row, jb: sql.json(row.jb) })}`;
    return [r.count, 1];
  });
  const sel = 'SELECT * FROM pjs_types WHERE id = $1';
  let got = {};
  try {
    got = (await sql`SELECT * FROM pjs_types WHERE id = ${1}`)[0] ?? {};
  } catch (e) {
    check('select of every type', sel, `${e.code} ${e.message}`, 'success');
  }
  for (const k of Object.keys(row)) check(`round trip: ${k}`, sel, got[k], row[k]);
  if (!got.id) return;
  await sql`INSERT INTO pjs_types (id) VALUES (2)`;
  await checkRun('round trip: NULL of every type', sel, async () => {
    const r = (await sql`SELECT * FROM pjs_types WHERE id = ${2}`)[0];
    return [Object.values(r).slice(1).every((v) => v === null), true];
  });
}

async function transactions(sql) {
  const count = async () => (await sql`SELECT count(*)::int AS n FROM pjs_kv`)[0].n;
  const base = await count();
  await sql.begin(async (tx) => { await tx`INSERT INTO pjs_kv VALUES (100, 'c')`; });
  check('sql.begin commits', 'INSERT INTO pjs_kv VALUES (100, ...)', await count(), base + 1);
  await sql.begin(async (tx) => {
    await tx`INSERT INTO pjs_kv VALUES (101, 'r')`;
    throw new Error('roll back');
  }).catch(() => {});
  check('sql.begin rolls back when the callback throws', 'INSERT INTO pjs_kv VALUES (101, ...)',
    await count(), base + 1);
  await checkRun('sql.begin(isolation level) reports it', 'SHOW transaction_isolation', async () =>
    [await sql.begin('isolation level repeatable read', async (tx) =>
      (await tx`SHOW transaction_isolation`)[0].transaction_isolation), 'repeatable read']);
  await checkRun('savepoint rolled back, outer transaction kept', 'SAVEPOINT s1 ... ROLLBACK TO s1', async () => {
    await sql.begin(async (tx) => {
      await tx`INSERT INTO pjs_kv VALUES (102, 'o')`;
      await tx.savepoint(async (sp) => {
        await sp`INSERT INTO pjs_kv VALUES (103, 's')`;
        throw new Error('to savepoint');
      }).catch(() => {});
    });
    return [(await sql`SELECT k FROM pjs_kv WHERE k >= 102 ORDER BY k`).map((r) => r.k), [102]];
  });
}

async function pool10x1000() {
  const sql = postgres({ ...opts, max: 10 });
  const t0 = Date.now();
  let wrong = 0;
  const pids = new Set();
  const worker = async (w) => {
    for (let i = 0; i < 1000; i++) {
      const n = w * 1000 + i;
      const r = await sql`SELECT ${n}::int * 2 AS v, pg_backend_pid() AS p`;
      if (r[0].v !== 2 * n) wrong++;
      pids.add(r[0].p);
    }
  };
  await Promise.all(Array.from({ length: 10 }, (_, w) => worker(w)));
  const ms = Date.now() - t0;
  check(`pool: 10 connections × 1,000 queries all correct (${ms} ms)`, 'SELECT $1::int * 2', wrong, 0);
  check('pool: 10 distinct backends served them', 'SELECT pg_backend_pid()', pids.size, 10);
  await sql.end();
}

async function main() {
  const sql = postgres(opts);
  setServerVersion((await sql`SELECT version() AS v`)[0].v);
  await sql`DROP TABLE IF EXISTS pjs_kv`;
  await sql`DROP TABLE IF EXISTS pjs_types`;
  await queries(sql);
  await types(sql);
  await transactions(sql);
  await sql.end();
  await pool10x1000();
  finish('postgres.js');
}

main().catch((e) => {
  console.log(`FAIL  unexpected error: ${e.code ?? ''} ${e.stack}`);
  process.exitCode = 1;
});

// pg_test.mjs — node-postgres (`pg`, pinned in package.json) against a Strata
// server (libpq's PG* environment, set by tests/harness/harness_run): simple
// and parameterised queries, named prepared statements, type round trips in
// text and binary result formats, transactions, errors with their SQLSTATE,
// statement_timeout, and a pool of 10 connections × 1,000 queries.
// Run by tests/clients/node/run.sh; the same file runs against PostgreSQL 15
// by pointing PGHOST/PGPORT at it (that is how the expectations were checked).
import pg from 'pg';
import { check, checkRun, checkError, finish, setServerVersion } from './check.mjs';

const { Client, Pool } = pg;

const TYPES_DDL = `CREATE TABLE node_pg_types (id int PRIMARY KEY, b boolean, i2 smallint,
  i4 integer, i8 bigint, f4 real, f8 double precision, n numeric(12,3), t text,
  vc varchar(20), d date, ts timestamp, tstz timestamptz, u uuid, by bytea,
  j json, jb jsonb, iv interval, ai integer[], at text[])`;
const TYPES_INSERT = `INSERT INTO node_pg_types VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
  $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`;
const TYPE_ROW = [1, true, -32768, 2147483647, '9007199254740993', 1.5, -2.25e-300,
  '123456789.125', 'héllo wörld', 'varchar', '2024-02-29', '2024-02-29 13:14:15.123456',
  new Date('2024-02-29T13:14:15.5Z'), 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
  Buffer.from([0, 1, 2, 255]), { a: [1, 2] }, { k: 'v', n: 1 }, '1 day 02:03:04',
  [1, null, 3], ['x', 'y z', null]];

async function typeRoundTrip(c) {
  await c.query(TYPES_DDL);
  await c.query(TYPES_INSERT, TYPE_ROW);
  await c.query(TYPES_INSERT, [2, ...TYPE_ROW.slice(1).map(() => null)]);
  const sel = 'SELECT * FROM node_pg_types WHERE id = $1';
  const r = (await c.query(sel, [1])).rows[0];
  check('text: boolean', sel, r.b, true);
  check('text: smallint', sel, r.i2, -32768);
  check('text: integer', sel, r.i4, 2147483647);
  check('text: bigint (string)', sel, r.i8, '9007199254740993');
  check('text: real', sel, r.f4, 1.5);
  check('text: double precision', sel, r.f8, -2.25e-300);
  check('text: numeric(12,3)', sel, r.n, '123456789.125');
  check('text: text (UTF-8)', sel, r.t, 'héllo wörld');
  check('text: varchar', sel, r.vc, 'varchar');
  check('text: date', sel, r.d, new Date('2024-02-29T00:00:00'));
  check('text: timestamp', sel, r.ts, new Date('2024-02-29T13:14:15.123'));
  check('text: timestamptz', sel, r.tstz, new Date('2024-02-29T13:14:15.5Z'));
  check('text: uuid', sel, r.u, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
  check('text: bytea', sel, r.by, Buffer.from([0, 1, 2, 255]));
  check('text: json', sel, r.j, { a: [1, 2] });
  check('text: jsonb', sel, r.jb, { k: 'v', n: 1 });
  check('text: interval', sel, r.iv && [r.iv.days, r.iv.hours, r.iv.minutes, r.iv.seconds], [1, 2, 3, 4]);
  check('text: integer[] with NULL', sel, r.ai, [1, null, 3]);
  check('text: text[] with NULL', sel, r.at, ['x', 'y z', null]);
  const nulls = (await c.query(sel, [2])).rows[0];
  check('text: NULL of every type', sel, Object.values(nulls).slice(1).every((v) => v === null), true);

  // Binary results: pg asks for format 1 on every column and decodes these.
  // pg 8's DataRow parser reads every field as a UTF-8 string before its
  // binary decoders see it, so only values whose binary form has no byte
  // >= 0x80 survive (a limitation of the driver, same against PostgreSQL):
  // row 3 holds such values. (Its float4 and numeric decoders are also
  // approximate: 2.0 and 7 decode exactly.)
  await c.query(`INSERT INTO node_pg_types (id, b, i2, i4, i8, f4, f8, n, t, ts, tstz, by, ai)
    VALUES (3, false, 300, 16909060, 72623859790382856, 2.0, 2.0, 7, 'abc',
    '2000-01-01 00:00:01', '2000-01-01 00:00:01+00', '\\x0001027f', '{1,2,3}')`);
  const bsel = 'SELECT b, i2, i4, i8, f4, f8, n, t, ts, tstz, by FROM node_pg_types WHERE id = $1';
  await checkRun('binary: every scalar type pg decodes', bsel, async () => {
    const br = (await c.query({ text: bsel, values: [3], binary: true })).rows[0];
    // pg has no binary bytea decoder: it hands over the raw bytes as a string.
    return [{ ...br, i8: String(br.i8), ts: br.ts.toISOString(), tstz: br.tstz.toISOString(),
      by: Buffer.from(br.by, 'latin1') },
      { b: false, i2: 300, i4: 16909060, i8: '72623859790382856', f4: 2, f8: 2, n: 7, t: 'abc',
        ts: '2000-01-01T00:00:01.000Z', tstz: '2000-01-01T00:00:01.000Z',
        by: Buffer.from([0, 1, 2, 127]) }];
  });
  const asel = 'SELECT ai FROM node_pg_types WHERE id = $1';
  await checkRun('binary: integer[]', asel, async () =>
    [(await c.query({ text: asel, values: [3], binary: true })).rows, [{ ai: [1, 2, 3] }]]);
  const bn = (await c.query({ text: bsel, values: [2], binary: true })).rows[0];
  check('binary: NULLs', bsel, Object.values(bn).every((v) => v === null), true);
  // A Buffer parameter travels in binary format (format code 1).
  const bp = 'SELECT $1::bytea AS v';
  await checkRun('binary parameter: bytea round trip', bp, async () =>
    [(await c.query(bp, [Buffer.from([0, 1, 2, 255])])).rows, [{ v: Buffer.from([0, 1, 2, 255]) }]]);
  const bq = 'SELECT id FROM node_pg_types WHERE by = $1';
  await checkRun('binary parameter: bytea in WHERE by = $1', bq, async () =>
    [(await c.query(bq, [Buffer.from([0, 1, 2, 255])])).rows, [{ id: 1 }]]);
}

async function preparedAndErrors(c) {
  const s1 = 'SELECT 1 AS one, \'a\'::text AS two';
  await checkRun('simple query', s1, async () => [(await c.query(s1)).rows, [{ one: 1, two: 'a' }]]);
  const s2 = 'SELECT $1::int + $2::int AS s, $3::text AS t';
  await checkRun('parameterised query (unnamed statement)', s2, async () =>
    [(await c.query(s2, [2, 3, 'x'])).rows, [{ s: 5, t: 'x' }]]);
  await c.query('CREATE TABLE node_pg_kv (k int PRIMARY KEY, v text)');
  const ins = { name: 'node_ins', text: 'INSERT INTO node_pg_kv VALUES ($1, $2)' };
  for (let i = 1; i <= 50; i++) await c.query({ ...ins, values: [i, 'v' + i] });
  const get = { name: 'node_get', text: 'SELECT v FROM node_pg_kv WHERE k = $1' };
  let got = [];
  for (const k of [1, 25, 50, 51]) got.push((await c.query({ ...get, values: [k] })).rows[0]?.v ?? null);
  check('named prepared statement reused (50 inserts, 4 lookups)', get.text, got, ['v1', 'v25', 'v50', null]);
  const cnt = 'SELECT count(*)::int AS n, sum(k)::int AS s FROM node_pg_kv';
  await checkRun('rows inserted through the named statement', cnt, async () =>
    [(await c.query(cnt)).rows, [{ n: 50, s: 1275 }]]);
  const upd = 'UPDATE node_pg_kv SET v = $1 WHERE k <= $2';
  await checkRun('rowCount of UPDATE', upd, async () => [(await c.query(upd, ['w', 10])).rowCount, 10]);
  const multi = 'SELECT 1 AS a; SELECT 2 AS b';
  await checkRun('several statements in one simple query', multi, async () =>
    [(await c.query(multi)).map((r) => r.rows), [[{ a: 1 }], [{ b: 2 }]]]);
  await checkError('error: unknown table gives 42P01', 'SELECT * FROM no_such_table',
    () => c.query('SELECT * FROM no_such_table'), '42P01');
  await checkError('error: division by zero gives 22012', 'SELECT $1::int / 0',
    () => c.query('SELECT $1::int / 0', [1]), '22012');
  await checkError('error: duplicate key gives 23505', ins.text,
    () => c.query({ ...ins, values: [1, 'dup'] }), '23505');
  await checkRun('connection usable after errors', s1, async () => [(await c.query(s1)).rows.length, 1]);
}

async function transactions(c) {
  const sel = 'SELECT count(*)::int AS n FROM node_pg_kv';
  const count = async () => (await c.query(sel)).rows[0].n;
  await c.query('BEGIN');
  await c.query('INSERT INTO node_pg_kv VALUES (100, $1)', ['t']);
  await c.query('COMMIT');
  check('transaction: COMMIT keeps the insert', sel, await count(), 51);
  await c.query('BEGIN');
  await c.query('INSERT INTO node_pg_kv VALUES (101, $1)', ['t']);
  check('transaction: insert visible inside', sel, await count(), 52);
  await c.query('ROLLBACK');
  check('transaction: ROLLBACK drops the insert', sel, await count(), 51);
  await c.query('BEGIN');
  await c.query('SELECT 1/0').catch(() => {});
  await checkError('transaction: statement after error gives 25P02', sel, () => c.query(sel), '25P02');
  await c.query('ROLLBACK');
  await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  const iso = 'SHOW transaction_isolation';
  await checkRun('BEGIN ISOLATION LEVEL REPEATABLE READ', iso, async () =>
    [(await c.query(iso)).rows[0].transaction_isolation, 'repeatable read']);
  await c.query('COMMIT');
  await c.query('CREATE TABLE node_pg_big (x int)');
  await c.query('INSERT INTO node_pg_big SELECT g FROM generate_series(1, 4096) g');
  const to = 'SELECT count(*) FROM node_pg_big a, node_pg_big b, node_pg_big c';
  await c.query('SET statement_timeout = 200');
  await checkError('statement_timeout cancels with 57014', to, () => c.query(to), '57014');
  await c.query('RESET statement_timeout');
}

async function pool10x1000() {
  const pool = new Pool({ max: 10 });
  const stmt = 'SELECT $1::int * 2 AS v';
  const t0 = Date.now();
  let wrong = 0;
  const worker = async (w) => {
    for (let i = 0; i < 1000; i++) {
      const n = w * 1000 + i;
      const r = await pool.query(stmt, [n]);
      if (r.rows[0].v !== 2 * n) wrong++;
    }
  };
  const pids = new Set();
  const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
  for (const cl of clients) pids.add((await cl.query('SELECT pg_backend_pid() AS p')).rows[0].p);
  clients.forEach((cl) => cl.release());
  await Promise.all(Array.from({ length: 10 }, (_, w) => worker(w)));
  const ms = Date.now() - t0;
  check('pool: 10 distinct backends', 'SELECT pg_backend_pid()', pids.size, 10);
  check(`pool: 10 connections × 1,000 queries all correct (${ms} ms)`, stmt, wrong, 0);
  check('pool: size stayed 10', stmt, pool.totalCount, 10);
  await pool.end();
}

async function main() {
  process.env.TZ = 'UTC';
  const c = new Client();
  await c.connect();
  setServerVersion((await c.query('SELECT version() AS v')).rows[0].v);
  for (const t of ['node_pg_types', 'node_pg_kv', 'node_pg_big']) await c.query(`DROP TABLE IF EXISTS ${t}`);
  await preparedAndErrors(c);
  await typeRoundTrip(c);
  await transactions(c);
  await c.end();
  await pool10x1000();
  finish('node-postgres');
}

main().catch((e) => {
  console.log(`FAIL  unexpected error: ${e.code ?? ''} ${e.stack}`);
  process.exitCode = 1;
});

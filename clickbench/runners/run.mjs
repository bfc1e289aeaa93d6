// run.mjs: runs ClickBench on an embedded engine (DuckDB through
// @duckdb/node-api, or ClickHouse through chdb) for clickbench/compare.sh.
//
//   node run.mjs duckdb|chdb --tsv FILE --create create.sql --queries Q.sql
//                --db DIR --out RESULT.json [--tries 3] [--restart 1]
//
// Loads the TSV (the PostgreSQL schema of create.sql, translated for
// ClickHouse), times each query `tries` times (the result is fully
// materialised on the client side, as ClickBench requires), and writes a
// ClickBench result JSON: load_time, data_size, result (seconds, null for a
// failure). Query errors are printed to stderr.
//
// Cold runs: with --restart 1 (compare.sh passes it when it can drop the
// page cache, i.e. as root, unless CB_COLD=0) the loading process closes the
// database, and each query runs in a fresh node process that opens it again
// after the page cache was dropped — ClickBench's own method for embedded
// engines (its duckdb and chdb entries start a process per query), and what
// benchmark.sh does to Strata and compare.sh to PostgreSQL (a server restart).
// Opening the database is not timed, as in ClickBench. Without it the
// queries run in the loading process (a "lukewarm" first try: the engine
// keeps its own buffers).
//
//   node run.mjs duckdb|chdb --db DIR --query SQL [--tries 3] --child 1
//
// is that per-query process: prints the tries' times as a JSON array.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execSync, spawnSync } from 'node:child_process';

function parseArgs(argv) {
  const a = { system: argv[0], tries: 3, restart: '0', child: '0' };
  for (let i = 1; i < argv.length; i += 2) a[argv[i].replace(/^--/, '')] = argv[i + 1];
  const need = a.child === '1' ? ['db', 'query'] : ['tsv', 'create', 'queries', 'db', 'out'];
  for (const k of need)
    if (!a[k]) throw new Error(`missing --${k}`);
  a.tries = Number(a.tries);
  return a;
}

function dropCaches() {
  try {
    execSync('sync');
    fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
  } catch {
    /* not root, or /proc/sys read-only: a warm "cold" run */
  }
}

function duSize(p) {
  return Number(execSync(`du -bcs ${JSON.stringify(p)} | tail -1 | cut -f1`).toString().trim());
}

// ClickHouse types for the PostgreSQL DDL of create.sql.
function clickhouseCreate(pgCreate) {
  const map = { BIGINT: 'Int64', SMALLINT: 'Int16', INTEGER: 'Int32', TEXT: 'String',
    'VARCHAR(255)': 'String', CHAR: 'FixedString(1)', DATE: 'Date', TIMESTAMP: 'DateTime' };
  const cols = [];
  for (const line of pgCreate.split('\n')) {
    const m = line.match(/^\s+(\w+)\s+([A-Za-z]+(?:\(\d+\))?)\s+NOT NULL/);
    if (m) cols.push(`${m[1]} ${map[m[2].toUpperCase()]}`);
  }
  return `CREATE TABLE hits (${cols.join(', ')}) ENGINE = MergeTree ` +
    'PRIMARY KEY (CounterID, EventDate, UserID, EventTime, WatchID)';
}

async function duckdbEngine(a) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const file = path.join(a.db, 'hits.duckdb');
  const inst = await DuckDBInstance.create(file);
  const conn = await inst.connect();
  return {
    async load() {
      await conn.run(fs.readFileSync(a.create, 'utf8'));
      await conn.run(`COPY hits FROM '${a.tsv}' (FORMAT csv, DELIMITER '\t', HEADER false, QUOTE '', ESCAPE '', NULLSTR '\\N')`);
      await conn.run('CHECKPOINT');
    },
    async query(sql) {
      const r = await conn.runAndReadAll(sql);
      return r.getRows().length;
    },
    size: () => duSize(a.db),
    close() {
      conn.closeSync();
      inst.closeSync();
    },
  };
}

async function chdbEngine(a) {
  const { Session } = await import('chdb');
  const s = new Session(a.db);
  return {
    async load() {
      s.query(clickhouseCreate(fs.readFileSync(a.create, 'utf8')));
      s.query(`INSERT INTO hits SELECT * FROM file('${a.tsv}', TabSeparated)`);
      s.query('OPTIMIZE TABLE hits FINAL');
    },
    async query(sql) {
      return s.query(sql, 'TabSeparated').length;
    },
    size: () => duSize(a.db),
    close() {
      s.close();
    },
  };
}

// Times `tries` runs of q on eng: seconds, or null for a failure.
async function timeTries(eng, q, i, tries) {
  const row = [];
  for (let k = 0; k < tries; k++) {
    const t = performance.now();
    try {
      await eng.query(q);
      row.push(Number(((performance.now() - t) / 1000).toFixed(4)));
    } catch (e) {
      process.stderr.write(`Q${i} try ${k + 1}: ${String(e.message || e).split('\n')[0]}\n`);
      row.push(null);
    }
  }
  return row;
}

// Query i in a fresh process (see the head comment); nulls if it dies.
function childTries(a, q, i) {
  const args = [fileURLToPath(import.meta.url), a.system, '--db', a.db, '--query', q,
    '--tries', String(a.tries), '--index', String(i), '--child', '1'];
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
  try {
    const row = JSON.parse(r.stdout.toString());
    if (Array.isArray(row) && row.length === a.tries) return row;
  } catch { /* fall through */ }
  process.stderr.write(`Q${i}: query process failed (status ${r.status}, signal ${r.signal})\n`);
  return Array(a.tries).fill(null);
}

async function childMain(a) {
  const eng = a.system === 'duckdb' ? await duckdbEngine(a) : await chdbEngine(a);
  const row = await timeTries(eng, a.query, a.index ?? '?', a.tries);
  eng.close();
  process.stdout.write(JSON.stringify(row));
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (a.child === '1') return childMain(a);
  fs.mkdirSync(a.db, { recursive: true });
  const eng = a.system === 'duckdb' ? await duckdbEngine(a) : await chdbEngine(a);
  let t = performance.now();
  await eng.load();
  execSync('sync');
  const loadTime = (performance.now() - t) / 1000;
  const queries = fs.readFileSync(a.queries, 'utf8').split('\n').filter((q) => q.trim());
  const restart = a.restart === '1';
  const size = eng.size();
  if (restart) eng.close();
  const result = [];
  for (const [i, q] of queries.entries()) {
    dropCaches();
    const row = restart ? childTries(a, q, i) : await timeTries(eng, q, i, a.tries);
    process.stderr.write(`Q${i} ${JSON.stringify(row)}\n`);
    result.push(row);
  }
  const out = { system: a.system === 'duckdb' ? 'DuckDB' : 'ClickHouse (chDB)',
    load_time: Number(loadTime.toFixed(3)), data_size: size, result };
  const rows = result.map((r) => JSON.stringify(r)).join(',\n');
  fs.writeFileSync(a.out, `{"system": ${JSON.stringify(out.system)}, "load_time": ${out.load_time}, ` +
    `"data_size": ${out.data_size},\n"result": [\n${rows}\n]}\n`);
}

main().catch((e) => {
  process.stderr.write(`run.mjs: ${e.stack || e}\n`);
  process.exit(1);
});

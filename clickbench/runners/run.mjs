// run.mjs: runs ClickBench on an embedded engine (DuckDB through
// @duckdb/node-api, or ClickHouse through chdb) for clickbench/compare.sh.
//
//   node run.mjs duckdb|chdb --tsv FILE --create create.sql --queries Q.sql
//                --db DIR --out RESULT.json [--tries 3]
//
// Loads the TSV (the PostgreSQL schema of create.sql, translated for
// ClickHouse), times each query `tries` times in-process (the result is
// fully materialised on the client side, as ClickBench requires), drops the
// OS page cache before the first try when running as root (embedded engines
// cannot be restarted: ClickBench's "lukewarm" cold run), and writes a
// ClickBench result JSON: load_time, data_size, result (seconds, null for a
// failure). Query errors are printed to stderr.
import fs from 'node:fs';
import path from 'node:path';
import { execSync } from 'node:child_process';

function parseArgs(argv) {
  const a = { system: argv[0], tries: 3 };
  for (let i = 1; i < argv.length; i += 2) a[argv[i].replace(/^--/, '')] = argv[i + 1];
  for (const k of ['tsv', 'create', 'queries', 'db', 'out'])
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
  };
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  fs.mkdirSync(a.db, { recursive: true });
  const eng = a.system === 'duckdb' ? await duckdbEngine(a) : await chdbEngine(a);
  let t = performance.now();
  await eng.load();
  execSync('sync');
  const loadTime = (performance.now() - t) / 1000;
  const queries = fs.readFileSync(a.queries, 'utf8').split('\n').filter((q) => q.trim());
  const result = [];
  for (const [i, q] of queries.entries()) {
    const row = [];
    for (let k = 0; k < a.tries; k++) {
      if (k === 0) dropCaches();
      t = performance.now();
      try {
        await eng.query(q);
        row.push(Number(((performance.now() - t) / 1000).toFixed(4)));
      } catch (e) {
        process.stderr.write(`Q${i} try ${k + 1}: ${String(e.message || e).split('\n')[0]}\n`);
        row.push(null);
      }
    }
    process.stderr.write(`Q${i} ${JSON.stringify(row)}\n`);
    result.push(row);
  }
  const out = { system: a.system === 'duckdb' ? 'DuckDB' : 'ClickHouse (chDB)',
    load_time: Number(loadTime.toFixed(3)), data_size: eng.size(), result };
  const rows = result.map((r) => JSON.stringify(r)).join(',\n');
  fs.writeFileSync(a.out, `{"system": ${JSON.stringify(out.system)}, "load_time": ${out.load_time}, ` +
    `"data_size": ${out.data_size},\n"result": [\n${rows}\n]}\n`);
}

main().catch((e) => {
  process.stderr.write(`run.mjs: ${e.stack || e}\n`);
  process.exit(1);
});

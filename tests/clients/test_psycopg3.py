"""test_psycopg3.py — psycopg 3 (Debian python3-psycopg) against Strata.

Over TLS with SCRAM-SHA-256 (the server rejects plaintext TCP): connection,
parameterised queries (%s auto, %t text, %b binary parameters), text and
binary results, executemany (pipeline mode with libpq >= 14), COPY in text
and binary format both ways with cursor.copy(), transactions (commit,
rollback, nested conn.transaction() = savepoints, errors), server-side
(named) cursors, and a round trip of every supported type (type_cases.py)
in text and in binary mode, as a cast parameter and through a table.
Prints every check; a failure names the statement and the difference.
"""
import os
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strata_server import PASSWORD, Check, StrataServer, skip  # noqa: E402
import type_cases  # noqa: E402

try:
    import psycopg
    from psycopg import errors, pq
    from psycopg.types.json import Json, Jsonb
except ImportError as e:
    skip("psycopg (3) cannot be imported (%s); Debian package python3-psycopg" % e)

# Strata gaps found by this test (tests/clients/README.md lists them as FAIL).
KNOWN_FAILURES = {
}


def adapt(sql_type, value):
    if isinstance(value, dict):
        return Jsonb(value) if sql_type == "jsonb" else Json(value)
    return value


def test_connect(c, conn):
    info = conn.info
    c.true("TLS in use (sslmode=require, hostssl scram-sha-256)", info.pgconn.ssl_in_use)
    c.eq("server_version // 10000", info.server_version // 10000, 15)
    c.eq("parameter_status(integer_datetimes)", info.parameter_status("integer_datetimes"), "on")
    c.eq("encoding", info.encoding, "utf-8")
    conn.execute("SET TimeZone TO 'UTC'")
    c.eq("SET TimeZone; parameter_status(TimeZone) (ParameterStatus sent)",
         info.parameter_status("TimeZone"), "UTC")
    conn.execute("SET application_name = 'psycopg3 test'")
    c.eq("SET application_name; SHOW application_name",
         conn.execute("SHOW application_name").fetchone()[0], "psycopg3 test")
    conn.commit()


def test_params(c, conn):
    q = "SELECT %s::int + 1 AS a, %s AS b, %s AS c, %s::numeric AS d, %s::date AS e"
    row = conn.execute(q, (41, "it's", None, "3.5", "2024-01-02")).fetchone()
    import datetime
    c.eq(q, row, (42, "it's", None, Decimal("3.5"), datetime.date(2024, 1, 2)))
    q = "SELECT %(x)s || %(y)s, %(x)s"
    c.eq(q, conn.execute(q, {"x": "ab", "y": "c'd"}).fetchone(), ("abc'd", "ab"))
    cur = conn.cursor()
    q = "SELECT g, g * 2 FROM generate_series(1, %s) g WHERE g > %s"
    cur.execute(q, (10, 7))
    c.eq(q + " (10, 7)", cur.fetchall(), [(8, 16), (9, 18), (10, 20)])
    c.eq("cursor.description names", [d.name for d in cur.description], ["g", "?column?"])
    q = "SELECT name FROM (VALUES (1, 'one'), (2, 'two')) v(id, name) WHERE id = %s"
    for i in range(3):   # psycopg prepares a statement after 5 executions (prepare_threshold)
        cur.execute(q, (2,), prepare=True)
        c.eq(q + " prepared, run %d" % (i + 1), cur.fetchone(), ("two",))
    conn.commit()


def test_types(c, conn):
    for mode, ph, binary in (("auto", "%s", False), ("text", "%t", False), ("binary", "%b", True)):
        cur = conn.cursor(binary=binary)
        for sql_type, value in type_cases.CASES + type_cases.ARRAY_CASES:
            q = "SELECT CAST(%s AS %s)" % (ph, sql_type)
            what = "[%s] %s with %r" % (mode, q, value)
            try:
                cur.execute(q, (adapt(sql_type, value),))
                c.eq(what, type_cases.normalize(cur.fetchone()[0]), value)
                if binary:
                    fmt = cur.pgresult.fformat(0)
                    c.true(what + ": result column in binary format", fmt == pq.Format.BINARY,
                           "format %s" % fmt)
            except psycopg.Error as e:
                c.fail(what, "%s %s" % (e.sqlstate, str(e).strip()))
                conn.rollback()
    conn.commit()


def test_type_table(c, conn):
    cols = type_cases.TABLE_TYPES
    names = [type_cases.column_name(t) for t, _ in cols]
    conn.execute("DROP TABLE IF EXISTS py3_types")
    conn.execute("CREATE TABLE py3_types (id int PRIMARY KEY, %s)" % ", ".join(
        "%s %s" % (n, t) for n, (t, _) in zip(names, cols)))
    ins = "INSERT INTO py3_types VALUES (%s)" % ", ".join(["%b"] * (len(cols) + 1))
    conn.execute(ins, [1] + [adapt(t, v) for t, v in cols])
    conn.execute(ins, [2] + [None] * len(cols))
    conn.commit()
    for binary in (False, True):
        mode = "binary" if binary else "text"
        rows = conn.cursor(binary=binary).execute("SELECT * FROM py3_types ORDER BY id").fetchall()
        c.eq("[%s] SELECT * FROM py3_types: row count" % mode, len(rows), 2)
        for i, (t, v) in enumerate(cols):
            c.eq("[%s] py3_types.%s (%s) read back" % (mode, names[i], t),
                 type_cases.normalize(rows[0][i + 1]), v)
        c.eq("[%s] py3_types row 2: all NULL" % mode, list(rows[1][1:]), [None] * len(cols))
    conn.commit()


def test_executemany(c, conn):
    cur = conn.cursor()
    conn.execute("DROP TABLE IF EXISTS py3_many")
    conn.execute("CREATE TABLE py3_many (id int PRIMARY KEY, name text, val float8, big bigint)")
    rows = [(i, "n%d" % i, i * 1.5, 2 ** 40 + i) for i in range(1, 501)]
    cur.executemany("INSERT INTO py3_many VALUES (%s, %s, %s, %s)", rows)
    c.eq("executemany INSERT of 500 rows: rowcount", cur.rowcount, 500)
    cur.executemany("INSERT INTO py3_many VALUES (%s, %s, %s, %s) RETURNING id * 10",
                    [(i, None, None, None) for i in (501, 502)], returning=True)
    got = []
    while True:
        got.append(cur.fetchone())
        if not cur.nextset():
            break
    c.eq("executemany ... RETURNING: one result per row", got, [(5010,), (5020,)])
    conn.commit()
    q = "SELECT count(*), sum(id), sum(val), count(val), max(big) FROM py3_many"
    c.eq(q, conn.execute(q).fetchone(), (502, 502 * 503 // 2, 1.5 * 500 * 501 / 2, 500, 2 ** 40 + 500))
    with conn.pipeline():
        for i in range(1, 11):
            conn.execute("UPDATE py3_many SET name = %s WHERE id = %s", ("p%d" % i, i))
        conn.execute("DELETE FROM py3_many WHERE id > %s", (500,))
    conn.commit()
    q = "SELECT count(*) FROM py3_many WHERE name LIKE 'p%'"
    c.eq("pipeline of 10 UPDATEs and a DELETE: " + q, conn.execute(q).fetchone()[0], 10)
    q = "SELECT count(*) FROM py3_many"
    c.eq("pipeline: " + q, conn.execute(q).fetchone()[0], 500)
    conn.commit()


COPY_TYPES = ["int4", "text", "float8", "int8", "date", "numeric", "bytea"]


def copy_rows(first, last):
    import datetime
    return [(i, "name\t%d" % i, None if i % 10 == 0 else i / 4, 2 ** 40 + i,
             datetime.date(2024, 1, 1) + datetime.timedelta(days=i), Decimal(i) / 8, bytes([i % 256, 0]))
            for i in range(first, last + 1)]


def copy_create(conn, table):
    conn.execute("DROP TABLE IF EXISTS %s" % table)
    conn.execute("CREATE TABLE %s (id int, name text, val float8, big bigint, d date, n numeric, b bytea)"
                 % table)


def copy_read(cur, sql):
    with cur.copy(sql) as copy:
        copy.set_types(COPY_TYPES)
        return [tuple(type_cases.normalize(x) for x in r) for r in copy.rows()]


def test_copy_text(c, conn):
    cur = conn.cursor()
    copy_create(conn, "py3_copy")
    rows = copy_rows(1, 1000)
    with cur.copy("COPY py3_copy FROM STDIN") as copy:
        for r in rows:
            copy.write_row(r)
    c.eq("cursor.copy COPY py3_copy FROM STDIN (text, write_row): rowcount", cur.rowcount, 1000)
    conn.commit()
    got = copy_read(cur, "COPY (SELECT * FROM py3_copy ORDER BY id) TO STDOUT")
    c.eq("COPY (SELECT ...) TO STDOUT (text) read with rows(): equals what was copied in", got, rows)
    with cur.copy("COPY py3_copy (id, name) TO STDOUT (FORMAT csv)") as copy:
        text = b"".join(bytes(b) for b in copy)
    c.eq("COPY py3_copy (id, name) TO STDOUT (FORMAT csv): lines", len(text.splitlines()), 1000)
    try:
        with cur.copy("COPY py3_copy (id) FROM STDIN") as copy:
            copy.write(b"12\nnot a number\n")
        c.fail("COPY FROM STDIN with a bad integer", "no error")
    except errors.InvalidTextRepresentation as e:
        c.ok("COPY FROM STDIN with a bad integer -> 22P02 (%s)" % str(e).splitlines()[0])
    conn.rollback()
    c.eq("after the failed COPY and rollback: count(*)",
         conn.execute("SELECT count(*) FROM py3_copy").fetchone()[0], 1000)
    conn.commit()


def test_copy_binary(c, conn):
    cur = conn.cursor()
    copy_create(conn, "py3_copyb")
    conn.execute("INSERT INTO py3_copyb SELECT * FROM py3_copy WHERE id <= 500")
    conn.commit()
    got = copy_read(cur, "COPY (SELECT * FROM py3_copyb ORDER BY id) TO STDOUT (FORMAT BINARY)")
    c.eq("copy binary: COPY ... TO STDOUT (FORMAT BINARY) read with rows(): equals the table", got, copy_rows(1, 500))
    rows = copy_rows(501, 1000)
    with cur.copy("COPY py3_copyb FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types(COPY_TYPES)
        for r in rows:
            copy.write_row(r)
    c.eq("copy binary: COPY ... FROM STDIN (FORMAT BINARY): rowcount", cur.rowcount, 500)
    conn.commit()
    got = copy_read(cur, "COPY (SELECT * FROM py3_copyb WHERE id > 500 ORDER BY id) TO STDOUT")
    c.eq("copy binary: COPY ... FROM STDIN (FORMAT BINARY), read back as text: equals what was copied in", got, rows)
    conn.commit()
    with cur.copy("COPY (SELECT * FROM py3_copyb WHERE id < 0) TO STDOUT (FORMAT BINARY)") as copy:
        raw = b"".join(bytes(b) for b in copy)
    c.eq("copy binary: COPY of no rows TO STDOUT (FORMAT BINARY): header + trailer bytes", raw,
         b"PGCOPY\n\xff\r\n\x00" + b"\x00" * 8 + b"\xff\xff")
    try:
        with cur.copy("COPY py3_copyb (id) FROM STDIN (FORMAT BINARY)") as copy:
            copy.write(b"NOTPGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")
        c.fail("copy binary: a bad signature", "no error")
    except errors.BadCopyFileFormat as e:
        c.eq("copy binary: a bad signature -> 22P04", e.diag.message_primary, "COPY file signature not recognized")
    conn.rollback()


def test_transactions(c, conn):
    conn.execute("DROP TABLE IF EXISTS py3_tx")
    conn.execute("CREATE TABLE py3_tx (id int PRIMARY KEY, v text)")
    conn.commit()
    conn.execute("INSERT INTO py3_tx VALUES (1, 'kept')")
    conn.commit()
    conn.execute("INSERT INTO py3_tx VALUES (2, 'rolled back')")
    c.eq("transaction_status inside the transaction", conn.info.transaction_status,
         pq.TransactionStatus.INTRANS)
    conn.rollback()
    q = "SELECT id FROM py3_tx ORDER BY id"
    c.eq("commit kept row 1, rollback dropped row 2: " + q, conn.execute(q).fetchall(), [(1,)])
    try:
        conn.execute("INSERT INTO py3_tx VALUES (1, 'duplicate')")
        c.fail("INSERT of a duplicate key", "no error")
    except errors.UniqueViolation as e:
        c.eq("INSERT of a duplicate key -> 23505: constraint name", e.diag.constraint_name, "py3_tx_pkey")
    c.eq("transaction_status after the error", conn.info.transaction_status, pq.TransactionStatus.INERROR)
    try:
        conn.execute("SELECT 1")
        c.fail("SELECT 1 in a failed transaction", "no error")
    except errors.InFailedSqlTransaction:
        c.ok("SELECT 1 in a failed transaction -> 25P02")
    conn.rollback()
    conn.autocommit = True
    with conn.transaction():
        conn.execute("INSERT INTO py3_tx VALUES (3, 'outer')")
        try:
            with conn.transaction():   # SAVEPOINT
                conn.execute("INSERT INTO py3_tx VALUES (4, 'inner')")
                conn.execute("INSERT INTO py3_tx VALUES (1, 'duplicate')")
        except errors.UniqueViolation:
            c.ok("nested conn.transaction(): the duplicate key rolled back to the savepoint")
        conn.execute("INSERT INTO py3_tx VALUES (5, 'after savepoint')")
    c.eq("nested transaction blocks: " + q, conn.execute(q).fetchall(), [(1,), (3,), (5,)])
    try:
        with conn.transaction():
            conn.execute("INSERT INTO py3_tx VALUES (6, 'rolled back')")
            raise psycopg.Rollback()
    except Exception as e:
        c.fail("raise Rollback inside conn.transaction()", repr(e))
    c.eq("psycopg.Rollback: row 6 absent", conn.execute("SELECT count(*) FROM py3_tx WHERE id = 6").fetchone()[0], 0)
    with psycopg.connect(DSN) as other:
        c.eq("a second connection sees the committed rows",
             other.execute("SELECT count(*) FROM py3_tx").fetchone()[0], 3)
    conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
    c.eq("BEGIN ISOLATION LEVEL REPEATABLE READ: SHOW transaction_isolation",
         conn.execute("SHOW transaction_isolation").fetchone()[0], "repeatable read")
    conn.execute("ROLLBACK")
    conn.autocommit = False


def test_server_cursor(c, conn):
    conn.execute("DROP TABLE IF EXISTS py3_big")
    conn.execute("CREATE TABLE py3_big AS SELECT g AS id, g * 2 AS dbl FROM generate_series(1, 10000) g")
    conn.commit()
    with conn.cursor(name="py3_named") as cur:
        cur.itersize = 777
        cur.execute("SELECT id, dbl FROM py3_big WHERE id > %s ORDER BY id", (0,))
        c.eq("server-side cursor fetchmany(5)", cur.fetchmany(5), [(i, 2 * i) for i in range(1, 6)])
        rest = list(cur)
        c.eq("server-side cursor iteration (itersize 777): rows", len(rest), 9995)
        c.eq("server-side cursor: last row", rest[-1], (10000, 20000))
    with conn.cursor(name="py3_scroll", scrollable=True) as cur:
        cur.execute("SELECT id FROM py3_big ORDER BY id")
        cur.scroll(100, mode="absolute")
        c.eq("server-side cursor: scroll(100, absolute) then fetchone", cur.fetchone(), (101,))
        cur.scroll(-51)
        c.eq("server-side cursor: scroll(-51) then fetchmany(2)", cur.fetchmany(2), [(51,), (52,)])
        c.eq("server-side cursor: rownumber after scrolling", cur.rownumber, 52)
    with conn.cursor(name="py3_params") as cur:
        cur.execute("SELECT id, %s::text AS tag FROM py3_big WHERE id BETWEEN %s AND %s ORDER BY id DESC",
                    ("t", 5, 7))
        c.eq("server-side cursor with 3 parameters: description", [d.name for d in cur.description], ["id", "tag"])
        c.eq("server-side cursor with 3 parameters: fetchall", cur.fetchall(), [(7, "t"), (6, "t"), (5, "t")])
    with conn.cursor(name="py3_bin", binary=True) as cur:
        cur.execute("SELECT id, dbl FROM py3_big WHERE id <= 3 ORDER BY id")
        c.eq("server-side cursor, binary: fetchall", cur.fetchall(), [(1, 2), (2, 4), (3, 6)])
    conn.commit()
    held = conn.cursor(name="py3_hold", withhold=True)
    held.execute("SELECT id FROM py3_big WHERE id <= %s ORDER BY id", (3,))
    c.eq("server-side WITH HOLD cursor: fetchone before commit", held.fetchone(), (1,))
    conn.commit()
    c.eq("server-side WITH HOLD cursor: the rest after commit", held.fetchall(), [(2,), (3,)])
    held.close()
    conn.commit()


def test_errors(c, conn):
    try:
        conn.execute("SELECT * FROM no_such_table")
        c.fail("SELECT * FROM no_such_table", "no error")
    except errors.UndefinedTable as e:
        c.eq("SELECT * FROM no_such_table: sqlstate", e.sqlstate, "42P01")
        c.eq("SELECT * FROM no_such_table: message", e.diag.message_primary,
             'relation "no_such_table" does not exist')
        c.eq("SELECT * FROM no_such_table: position", e.diag.statement_position, "15")
    conn.rollback()
    try:
        conn.execute("SELECT %s::int / 0", (1,))
        c.fail("SELECT $1::int / 0", "no error")
    except errors.DivisionByZero as e:
        c.eq("SELECT $1::int / 0: message", e.diag.message_primary, "division by zero")
    conn.rollback()
    try:
        conn.execute("SET statement_timeout = 200")
        conn.execute("SELECT count(*) FROM generate_series(1, 1000000000)")
        c.fail("statement_timeout 200 ms on a long query", "no error")
    except errors.QueryCanceled as e:
        c.eq("statement_timeout 200 ms: message", e.diag.message_primary,
             "canceling statement due to statement timeout")
    conn.rollback()


DSN = None


def main():
    global DSN
    server = StrataServer()
    c = Check("psycopg %s (libpq %s)" % (psycopg.__version__, pq.version()), KNOWN_FAILURES)
    DSN = server.dsn()
    try:
        conn = psycopg.connect(DSN)
    except psycopg.Error as e:
        c.fail("psycopg.connect(sslmode=require, SCRAM)", str(e).strip())
        c.finish(server)
    c.ok("psycopg.connect over TLS with SCRAM-SHA-256")
    try:
        psycopg.connect(server.dsn(password="wrong")).close()
        c.fail("connect with a wrong password", "succeeded")
    except psycopg.OperationalError as e:
        c.true("connect with a wrong password is refused",
               "password authentication failed" in str(e), str(e).strip())
    for name, fn in [("connect", test_connect), ("params", test_params), ("types", test_types),
                     ("type table", test_type_table), ("executemany", test_executemany),
                     ("copy text", test_copy_text), ("copy binary", test_copy_binary),
                     ("transactions", test_transactions),
                     ("server-side cursor", test_server_cursor), ("errors", test_errors)]:
        print("== %s" % name)
        c.run(name, lambda: fn(c, conn))
        if not conn.closed and conn.info.transaction_status != pq.TransactionStatus.IDLE:
            conn.rollback()
    conn.close()
    c.finish(server)


if __name__ == "__main__":
    main()

"""test_psycopg2.py — psycopg2 (Debian python3-psycopg2) against Strata.

Over TLS with SCRAM-SHA-256 (the server rejects plaintext TCP): connection
and session parameters, parameterised queries, executemany, COPY through
copy_expert / copy_from / copy_to, commit / rollback / errors inside a
transaction, server-side named cursors, and a round trip of every supported
type (type_cases.py) both as a cast parameter and through a table.
Prints every check; a failure names the statement and the difference.
"""
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strata_server import Check, StrataServer, skip  # noqa: E402
import type_cases  # noqa: E402

try:
    import psycopg2
    import psycopg2.errors
    import psycopg2.extras
except ImportError as e:
    skip("psycopg2 cannot be imported (%s); Debian package python3-psycopg2" % e)

psycopg2.extras.register_uuid()


def adapt(value):
    """psycopg2 needs Json() for dicts; everything else adapts by itself."""
    return psycopg2.extras.Json(value) if isinstance(value, dict) else value


def test_connect(c, conn):
    cur = conn.cursor()
    cur.execute("SELECT version(), current_user, current_setting('server_version_num')")
    version, user, num = cur.fetchone()
    c.true("SELECT version() names PostgreSQL 15", version.startswith("PostgreSQL 15"), version)
    c.eq("SELECT current_user", user, "postgres")
    c.true("server_version_num is 15xxxx", num.startswith("15"), num)
    c.eq("conn.server_version // 10000", conn.server_version // 10000, 15)
    c.true("TLS in use (sslmode=require, hostssl scram-sha-256)", conn.info.ssl_in_use)
    c.eq("conn.info.ssl_attribute('protocol') is TLS",
         (conn.info.ssl_attribute("protocol") or "")[:3], "TLS")
    c.eq("encoding", conn.encoding, "UTF8")
    cur.execute("SET TimeZone = 'UTC'")
    c.eq("SET TimeZone; SHOW TimeZone", (cur.execute("SHOW TimeZone"), cur.fetchone()[0])[1], "UTC")
    conn.commit()


def test_params(c, conn):
    cur = conn.cursor()
    q = "SELECT %s::int + 1 AS a, %s AS b, %s AS c, %s::numeric AS d"
    cur.execute(q, (41, "it's", None, "3.5"))
    from decimal import Decimal
    c.eq(q + " (41, \"it's\", None, '3.5')", cur.fetchone(), (42, "it's", None, Decimal("3.5")))
    c.eq("cursor.description names", [d.name for d in cur.description], ["a", "b", "c", "d"])
    q = "SELECT %(x)s::text || %(y)s::text, %(x)s::text"
    cur.execute(q, {"x": "ab", "y": "c'd"})
    c.eq(q, cur.fetchone(), ("abc'd", "ab"))
    q = "SELECT count(*) FROM generate_series(1, 100) g WHERE g > %s"
    cur.execute(q, (90,))
    c.eq(q + " (90)", cur.fetchone()[0], 10)
    conn.commit()


def test_types(c, conn):
    cur = conn.cursor()
    for sql_type, value in type_cases.CASES + type_cases.ARRAY_CASES:
        q = "SELECT CAST(%%s AS %s)" % sql_type
        what = "%s with %r" % (q, value)
        try:
            cur.execute(q, (adapt(value),))
            c.eq(what, type_cases.normalize(cur.fetchone()[0]), value)
        except psycopg2.Error as e:
            c.fail(what, "%s %s" % (e.pgcode, str(e).strip()))
            conn.rollback()
    conn.commit()


def test_type_table(c, conn):
    cur = conn.cursor()
    cols = type_cases.TABLE_TYPES
    names = [type_cases.column_name(t) for t, _ in cols]
    cur.execute("DROP TABLE IF EXISTS py2_types")
    ddl = "CREATE TABLE py2_types (id int PRIMARY KEY, %s)" % ", ".join(
        "%s %s" % (n, t) for n, (t, _) in zip(names, cols))
    cur.execute(ddl)
    ins = "INSERT INTO py2_types VALUES (%s)" % ", ".join(["%s"] * (len(cols) + 1))
    cur.execute(ins, [1] + [adapt(v) for _, v in cols])
    cur.execute(ins, [2] + [None] * len(cols))
    conn.commit()
    cur.execute("SELECT * FROM py2_types ORDER BY id")
    rows = cur.fetchall()
    c.eq("SELECT * FROM py2_types: row count", len(rows), 2)
    for i, (t, v) in enumerate(cols):
        c.eq("py2_types.%s (%s) read back" % (names[i], t), type_cases.normalize(rows[0][i + 1]), v)
    c.eq("py2_types row 2: all NULL", list(rows[1][1:]), [None] * len(cols))
    conn.commit()


def test_executemany(c, conn):
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS py2_many")
    cur.execute("CREATE TABLE py2_many (id int PRIMARY KEY, name text, val float8)")
    rows = [(i, "n%d" % i, i * 1.5) for i in range(1, 501)]
    cur.executemany("INSERT INTO py2_many VALUES (%s, %s, %s)", rows)
    c.eq("executemany INSERT of 500 rows: rowcount (psycopg2 sums)", cur.rowcount, 500)
    psycopg2.extras.execute_values(cur, "INSERT INTO py2_many VALUES %s",
                                   [(i, "v%d" % i, None) for i in range(501, 601)])
    conn.commit()
    cur.execute("SELECT count(*), sum(id), sum(val), count(val) FROM py2_many")
    c.eq("SELECT count(*), sum(id), sum(val), count(val) FROM py2_many",
         cur.fetchone(), (600, 600 * 601 // 2, 1.5 * 500 * 501 / 2, 500))
    cur.execute("UPDATE py2_many SET val = 0 WHERE id <= %s", (10,))
    c.eq("UPDATE ... WHERE id <= 10: rowcount", cur.rowcount, 10)
    cur.execute("DELETE FROM py2_many WHERE id > %s", (590,))
    c.eq("DELETE ... WHERE id > 590: rowcount", cur.rowcount, 10)
    conn.commit()


def test_copy(c, conn):
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS py2_copy")
    cur.execute("CREATE TABLE py2_copy (id int, name text, val float8)")
    data = "".join("%d\tname %d\t%s\n" % (i, i, "\\N" if i % 10 == 0 else "%g" % (i / 4))
                   for i in range(1, 1001))
    cur.copy_expert("COPY py2_copy (id, name, val) FROM STDIN", io.StringIO(data))
    c.eq("copy_expert COPY py2_copy FROM STDIN: rowcount", cur.rowcount, 1000)
    cur.copy_from(io.StringIO("1001\tfrom copy_from\t\\N\n"), "py2_copy", columns=("id", "name", "val"))
    c.eq("copy_from (COPY ... FROM stdin WITH DELIMITER AS ...): rowcount", cur.rowcount, 1)
    csv = 'id,name,val\n2001,"comma, ""quoted""",2.5\n2002,,\n'
    cur.copy_expert("COPY py2_copy FROM STDIN WITH (FORMAT csv, HEADER true)", io.StringIO(csv))
    c.eq("copy_expert COPY ... FROM STDIN (FORMAT csv, HEADER): rowcount", cur.rowcount, 2)
    conn.commit()
    out = io.StringIO()
    cur.copy_expert("COPY (SELECT id, name, val FROM py2_copy WHERE id <= 1000 ORDER BY id) TO STDOUT", out)
    c.eq("copy_expert COPY (SELECT ...) TO STDOUT: text equals what was copied in", out.getvalue(), data)
    out = io.StringIO()
    cur.copy_to(out, "py2_copy", columns=("id", "name"))
    c.eq("copy_to py2_copy: lines", len(out.getvalue().splitlines()), 1003)
    out = io.StringIO()
    cur.copy_expert("COPY (SELECT * FROM py2_copy WHERE id > 2000 ORDER BY id) TO STDOUT WITH (FORMAT csv)", out)
    c.eq("COPY ... TO STDOUT (FORMAT csv)", out.getvalue(), '2001,"comma, ""quoted""",2.5\n2002,,\n')
    try:
        cur.copy_expert("COPY py2_copy FROM STDIN", io.StringIO("x\ty\tz\n"))
        c.fail("COPY FROM STDIN with a bad integer", "no error")
    except psycopg2.errors.InvalidTextRepresentation as e:
        c.ok("COPY FROM STDIN with a bad integer -> 22P02 (%s)" % str(e).splitlines()[0])
    conn.rollback()
    cur.execute("SELECT count(*) FROM py2_copy")
    c.eq("after the failed COPY and rollback: count(*)", cur.fetchone()[0], 1003)
    conn.commit()


def test_transactions(c, conn):
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS py2_tx")
    cur.execute("CREATE TABLE py2_tx (id int PRIMARY KEY, v text)")
    conn.commit()
    cur.execute("INSERT INTO py2_tx VALUES (1, 'kept')")
    conn.commit()
    cur.execute("INSERT INTO py2_tx VALUES (2, 'rolled back')")
    c.eq("status inside the transaction", conn.info.transaction_status,
         psycopg2.extensions.TRANSACTION_STATUS_INTRANS)
    conn.rollback()
    cur.execute("SELECT id FROM py2_tx ORDER BY id")
    c.eq("commit kept row 1, rollback dropped row 2", cur.fetchall(), [(1,)])
    try:
        cur.execute("INSERT INTO py2_tx VALUES (1, 'duplicate')")
        c.fail("INSERT of a duplicate key", "no error")
    except psycopg2.errors.UniqueViolation as e:
        c.ok("INSERT of a duplicate key -> 23505 (%s)" % str(e).splitlines()[0])
    try:
        cur.execute("SELECT 1")
        c.fail("SELECT 1 in a failed transaction", "no error")
    except psycopg2.errors.InFailedSqlTransaction:
        c.ok("SELECT 1 in a failed transaction -> 25P02")
    conn.rollback()
    cur.execute("SAVEPOINT s1")
    cur.execute("INSERT INTO py2_tx VALUES (3, 'after savepoint')")
    cur.execute("ROLLBACK TO SAVEPOINT s1")
    cur.execute("INSERT INTO py2_tx VALUES (4, 'kept')")
    conn.commit()
    cur.execute("SELECT id FROM py2_tx ORDER BY id")
    c.eq("ROLLBACK TO SAVEPOINT dropped row 3 only", cur.fetchall(), [(1,), (4,)])
    conn.rollback()
    conn.autocommit = True
    cur.execute("INSERT INTO py2_tx VALUES (5, 'autocommit')")
    other = psycopg2.connect(conn.dsn + " password=" + SERVER_PASSWORD)
    ocur = other.cursor()
    ocur.execute("SELECT count(*) FROM py2_tx")
    c.eq("autocommit row visible to another connection", ocur.fetchone()[0], 3)
    other.close()
    conn.autocommit = False
    with conn:
        cur.execute("DELETE FROM py2_tx WHERE id = 5")
    cur.execute("SELECT count(*) FROM py2_tx")
    c.eq("'with conn:' committed the DELETE", cur.fetchone()[0], 2)
    conn.rollback()
    conn.set_session(isolation_level="REPEATABLE READ")
    cur.execute("SHOW transaction_isolation")
    c.eq("set_session(REPEATABLE READ): SHOW transaction_isolation", cur.fetchone()[0], "repeatable read")
    conn.rollback()
    conn.set_session(isolation_level="DEFAULT")


def test_named_cursor(c, conn):
    cur = conn.cursor()
    cur.execute("DROP TABLE IF EXISTS py2_big")
    cur.execute("CREATE TABLE py2_big AS SELECT g AS id, g * 2 AS dbl FROM generate_series(1, 10000) g")
    conn.commit()
    named = conn.cursor("py2_named")
    named.itersize = 777
    named.execute("SELECT id, dbl FROM py2_big WHERE id > %s ORDER BY id", (0,))
    first = named.fetchmany(5)
    c.eq("named cursor fetchmany(5)", first, [(i, 2 * i) for i in range(1, 6)])
    rest = list(named)
    c.eq("named cursor iteration (itersize 777): rows", len(rest), 9995)
    c.eq("named cursor: last row", rest[-1], (10000, 20000))
    c.true("named cursor: rows in order", all(r[0] == i + 6 for i, r in enumerate(rest)))
    named.close()
    conn.commit()
    two = conn.cursor("py2_two")
    two.execute("SELECT id FROM py2_big WHERE id <= 3 ORDER BY id")
    other = conn.cursor("py2_other")
    other.execute("SELECT id FROM py2_big WHERE id > 9998 ORDER BY id")
    c.eq("two named cursors interleaved", (two.fetchone(), other.fetchone(), two.fetchall(), other.fetchall()),
         ((1,), (9999,), [(2,), (3,)], [(10000,)]))
    conn.commit()
    cur = conn.cursor()
    try:
        cur.execute('FETCH FORWARD 1 FROM "py2_two"')
        c.fail("FETCH from a cursor closed by COMMIT", "no error")
    except psycopg2.errors.InvalidCursorName as e:
        c.eq("FETCH from a cursor closed by COMMIT -> 34000", e.diag.message_primary, 'cursor "py2_two" does not exist')
    conn.rollback()
    conn.autocommit = True
    try:
        cur.execute("DECLARE c1 CURSOR FOR SELECT 1")
        c.fail("DECLARE outside a transaction block", "no error")
    except psycopg2.errors.NoActiveSqlTransaction as e:
        c.eq("DECLARE outside a transaction block -> 25P01", e.diag.message_primary,
             "DECLARE CURSOR can only be used in transaction blocks")
    conn.autocommit = False


def test_scroll_cursor(c, conn):
    scroll = conn.cursor("py2_scroll", scrollable=True)
    scroll.execute("SELECT id FROM py2_big ORDER BY id")
    scroll.scroll(100, mode="absolute")
    c.eq("scrollable named cursor: scroll(100, absolute) then fetchone", scroll.fetchone(), (101,))
    scroll.scroll(-51)
    c.eq("scrollable named cursor: scroll(-51) (MOVE BACKWARD) then fetchmany(2)", scroll.fetchmany(2),
         [(51,), (52,)])
    scroll.scroll(0, mode="absolute")
    c.eq("scrollable named cursor: scroll(0, absolute) then fetchone", scroll.fetchone(), (1,))
    scroll.scroll(9998)
    c.eq("scrollable named cursor: scroll(9998) to the last row, fetchall", scroll.fetchall(), [(10000,)])
    scroll.close()
    conn.commit()
    cur = conn.cursor()
    cur.execute("BEGIN")
    cur.execute("DECLARE py2_ns NO SCROLL CURSOR FOR SELECT id FROM py2_big ORDER BY id")
    cur.execute("FETCH 2 FROM py2_ns")
    try:
        cur.execute("FETCH PRIOR FROM py2_ns")
        c.fail("FETCH PRIOR from a NO SCROLL cursor", "no error")
    except psycopg2.errors.ObjectNotInPrerequisiteState as e:
        c.eq("FETCH PRIOR from a NO SCROLL cursor -> 55000", (e.diag.message_primary, e.diag.message_hint),
             ("cursor can only scan forward", "Declare it with SCROLL option to enable backward scan."))
    conn.rollback()


def test_hold_cursor(c, conn):
    held = conn.cursor("py2_hold", withhold=True)
    held.execute("SELECT id FROM py2_big WHERE id <= 3 ORDER BY id")
    c.eq("WITH HOLD named cursor: fetchone before commit", held.fetchone(), (1,))
    conn.commit()
    c.eq("WITH HOLD named cursor: the rest after commit", held.fetchall(), [(2,), (3,)])
    conn.rollback()
    held.close()
    conn.commit()
    gone = conn.cursor("py2_hold_rb", withhold=True)
    gone.execute("SELECT 1")
    conn.rollback()
    cur = conn.cursor()
    try:
        cur.execute('FETCH FORWARD 1 FROM "py2_hold_rb"')
        c.fail("FETCH from a WITH HOLD cursor whose transaction rolled back", "no error")
    except psycopg2.errors.InvalidCursorName as e:
        c.eq("WITH HOLD cursor dropped by ROLLBACK -> 34000", e.pgcode, "34000")
    conn.rollback()


def test_errors(c, conn):
    cur = conn.cursor()
    try:
        cur.execute("SELECT * FROM no_such_table")
        c.fail("SELECT * FROM no_such_table", "no error")
    except psycopg2.errors.UndefinedTable as e:
        c.eq("SELECT * FROM no_such_table: pgcode", e.pgcode, "42P01")
        c.eq("SELECT * FROM no_such_table: message", e.diag.message_primary,
             'relation "no_such_table" does not exist')
        c.eq("SELECT * FROM no_such_table: position", e.diag.statement_position, "15")
    conn.rollback()
    try:
        cur.execute("SELECT 1/0")
        c.fail("SELECT 1/0", "no error")
    except psycopg2.errors.DivisionByZero as e:
        c.eq("SELECT 1/0: message", e.diag.message_primary, "division by zero")
    conn.rollback()


SERVER_PASSWORD = None

# Strata gaps found by this test (tests/clients/README.md lists them as FAIL).
KNOWN_FAILURES = {
}


def main():
    global SERVER_PASSWORD
    server = StrataServer()
    c = Check("psycopg2 %s" % psycopg2.__version__, KNOWN_FAILURES)
    from strata_server import PASSWORD
    SERVER_PASSWORD = PASSWORD
    try:
        conn = psycopg2.connect(server.dsn())
    except psycopg2.Error as e:
        c.fail("psycopg2.connect(sslmode=require, SCRAM)", str(e).strip())
        c.finish(server)
    c.ok("psycopg2.connect over TLS with SCRAM-SHA-256")
    try:
        psycopg2.connect(server.dsn(password="wrong")).close()
        c.fail("connect with a wrong password", "succeeded")
    except psycopg2.OperationalError as e:
        c.true("connect with a wrong password is refused",
               "password authentication failed" in str(e), str(e).strip())
    try:
        psycopg2.connect(server.dsn(sslmode="disable")).close()
        c.fail("connect without TLS (hostnossl reject)", "succeeded")
    except psycopg2.OperationalError:
        c.ok("connect without TLS is refused (hostnossl reject)")
    for name, fn in [("connect", test_connect), ("params", test_params), ("types", test_types),
                     ("type table", test_type_table), ("executemany", test_executemany),
                     ("copy", test_copy), ("transactions", test_transactions),
                     ("named cursor", test_named_cursor), ("scrollable named cursor", test_scroll_cursor),
                     ("WITH HOLD named cursor", test_hold_cursor), ("errors", test_errors)]:
        print("== %s" % name)
        c.run(name, lambda: fn(c, conn))
        if not conn.closed and conn.info.transaction_status != psycopg2.extensions.TRANSACTION_STATUS_IDLE:
            conn.rollback()
    conn.close()
    c.finish(server)


if __name__ == "__main__":
    main()

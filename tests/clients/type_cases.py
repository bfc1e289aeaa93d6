"""type_cases.py — the values both Python client tests send and read back.

CASES is a list of (SQL type, Python value): every type Strata supports on
the wire (issue 6), edge values included, and NULL of several types. A
client test sends each value as a query parameter cast to the type, reads
it back and compares it with the original (the driver converts both ways,
so a wrong text or binary form on either side shows up as a difference).
ARRAY_CASES are the same for arrays. normalize() maps driver-specific
representations (psycopg2's memoryview for bytea) to plain Python values.
"""
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from uuid import UUID

CASES = [
    ("bool", True), ("bool", False),
    ("int2", 32767), ("int2", -32768),
    ("int4", 2147483647), ("int4", -2147483648),
    ("int8", 9223372036854775807), ("int8", -9223372036854775808),
    ("float4", 1.5), ("float4", -0.25),
    ("float8", 1.0000000000000002), ("float8", -1e300), ("float8", float("inf")),
    ("numeric", Decimal("12345678901234567890.123456789")), ("numeric", Decimal("-0.001")),
    ("numeric", Decimal("0")), ("numeric", Decimal("1.10")),
    ("text", "it's \u00fcn\u00efcode \u2603 \\ \"q\""), ("text", ""),
    ("varchar(20)", "varchar value"),
    ("bytea", bytes(range(256))), ("bytea", b""),
    ("date", date(2024, 2, 29)), ("date", date(1999, 12, 31)),
    ("time", time(23, 59, 59, 123456)), ("time", time(0, 0)),
    ("timestamp", datetime(2024, 1, 2, 3, 4, 5, 678901)),
    ("timestamp", datetime(1970, 1, 1)),
    ("timestamptz", datetime(2024, 6, 30, 12, 0, 0, 1, tzinfo=timezone.utc)),
    ("interval", timedelta(days=3, hours=4, seconds=5, microseconds=6)),
    ("interval", timedelta(days=-1, seconds=1)),
    ("uuid", UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")),
    ("json", {"a": [1, 2.5, None, "x"], "b": {"c": True}}),
    ("jsonb", {"k": [1, {"n": None}], "s": "\u00e9"}),
    ("int4", None), ("text", None), ("numeric", None), ("timestamptz", None), ("bytea", None),
]

ARRAY_CASES = [
    ("int4[]", [1, 2, None, 4]),
    ("int8[]", [9223372036854775807, -1]),
    ("int2[]", [1, -2]),
    ("text[]", ["a", "b c", None, "\"q\"", "", "NULL", "{x}"]),
    ("float8[]", [1.5, -2.0]),
    ("bool[]", [True, False, None]),
    ("numeric[]", [Decimal("1.10"), Decimal("-2")]),
    ("date[]", [date(2024, 1, 1), None]),
    ("int4[]", [[1, 2], [3, 4]]),
    ("text[]", [["a", None], ["b c", ""]]),
    ("int8[]", [[[1], [2]], [[3], [None]]]),
    ("numeric[]", [[Decimal("1.5")], [Decimal("-2")]]),
    ("int4[]", []),
    ("uuid[]", [UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")]),
    ("timestamp[]", [datetime(2024, 1, 2, 3, 4, 5)]),
]

# Columns of the round-trip table: one per scalar type above (first value).
TABLE_TYPES = []
for t, v in CASES:
    if v is not None and t not in [c[0] for c in TABLE_TYPES]:
        TABLE_TYPES.append((t, v))


def normalize(v):
    """Driver-neutral form: memoryview -> bytes, recursively in lists."""
    if isinstance(v, memoryview):
        return bytes(v)
    if isinstance(v, list):
        return [normalize(x) for x in v]
    return v


def column_name(sql_type):
    return "c_" + sql_type.split("(")[0].replace("[]", "_arr")

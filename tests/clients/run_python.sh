#!/bin/sh
# run_python.sh SCRIPT [ARGS...] — run a Python client test with the Debian
# python3 (/usr/bin/python3: the one apt's python3-psycopg2/python3-psycopg
# install into), falling back to the first python3 on PATH.
for py in /usr/bin/python3 "$(command -v python3 2>/dev/null)"; do
    if [ -n "$py" ] && [ -x "$py" ]; then
        exec "$py" "$@"
    fi
done
echo "SKIP: no python3 interpreter found (Debian package python3)"
exit 77

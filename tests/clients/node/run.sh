#!/bin/sh
# run.sh — run one Node client test (pg_test.mjs or postgresjs_test.mjs)
# against a throwaway Strata server.
#
#   sh run.sh HARNESS_RUN WORKDIR TEST.mjs
#
# Installs the pinned drivers (package.json + package-lock.json, `npm ci`)
# into WORKDIR (in the build directory) when they are missing or the lock
# file changed — under a lock, since both Node tests may start at once —
# copies the test scripts next to node_modules (Node resolves bare imports
# from the script's folder), then runs `node TEST` through harness_run,
# which starts the server and sets PGHOST/PGPORT/PGUSER/PGDATABASE.
# Without node/npm the test is skipped (exit 77) with the reason printed;
# a failing install fails the test.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
harness_run=$1 work=$2 test=$3

for tool in node npm flock; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (bash dev.sh test installs nodejs and npm)"
        exit 77
    fi
done
mkdir -p "$work"
(
    flock 9
    if [ ! -d "$work/node_modules" ] || ! cmp -s "$here/package-lock.json" "$work/.installed"; then
        cp "$here/package.json" "$here/package-lock.json" "$work/"
        if ! (cd "$work" && npm ci --no-audit --no-fund --loglevel=error); then
            echo "FAIL: npm ci of pg/postgres (tests/clients/node/package-lock.json) failed"
            exit 1
        fi
        cp "$here/package-lock.json" "$work/.installed"
    fi
    # under the lock too: two cp of one file at once can fail with EEXIST
    cp "$here"/*.mjs "$work/"
) 9>"$work/.lock"
echo "drivers: $(cd "$work" && node -e 'for (const p of ["pg", "postgres"]) process.stdout.write(p + " " + require("./node_modules/" + p + "/package.json").version + "  ")'), node $(node --version)"
TZ=UTC exec "$harness_run" -- node "$work/$test"

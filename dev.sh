#!/usr/bin/env bash
# dev.sh — set up, build, run and test Strata from a fresh clone (Debian 12, as root).
#
#   bash dev.sh run    install what is missing, build, start the server in the
#                      foreground on 127.0.0.1:5432 (data directory ./data)
#   bash dev.sh test   install what is missing, build, and run every test:
#                      a gcc build and a clang build with AddressSanitizer +
#                      UndefinedBehaviorSanitizer, each running the whole suite
#
# Extra arguments after "run" go to the server (e.g. bash dev.sh run -p 5433).
set -euo pipefail
cd "$(dirname "$0")"

# What building and running the server needs (plus psql to talk to it) ...
RUN_PACKAGES=(gcc pkg-config meson ninja-build lemon
              libssl-dev libzstd-dev liblz4-dev libpcre2-dev
              postgresql-client-15 openssl)
# ... and what the tests add: clang for the sanitizer build, Criterion, libpq,
# PostgreSQL 15 (pgbench, the reference server of tests/pg15_check.sh) and the
# client drivers of tests/clients/. Note: on a machine with systemd, installing
# postgresql-15 starts Debian's own cluster on port 5432, where `dev.sh run`
# listens by default: stop it (pg_ctlcluster 15 main stop) or pass -p PORT.
TEST_PACKAGES=(clang libcriterion-dev libpq-dev
               postgresql-15 python3-psycopg2 python3-psycopg
               openjdk-17-jdk-headless libpostgresql-jdbc-java nodejs)

install_missing() { # install_missing PACKAGE...
    local missing=()
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    # Debian's nodejs comes without npm (NodeSource's bundles it): add it only then.
    case " $* " in
    *" nodejs "*) command -v npm >/dev/null 2>&1 || missing+=(npm) ;;
    esac
    if [ ${#missing[@]} -gt 0 ]; then
        echo "dev.sh: installing ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

build() { # build DIR [meson options...]
    local dir=$1; shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@" >/dev/null
    fi
    ninja -C "$dir" >/dev/null || ninja -C "$dir"
}

case "${1:-}" in
run)
    shift
    install_missing "${RUN_PACKAGES[@]}"
    build build-release -Dbuildtype=release -Dtests=false
    exec ./build-release/protocol/strata -D data -h 127.0.0.1 "$@"
    ;;
test)
    install_missing "${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    build build
    meson test -C build --print-errorlogs --num-processes 2
    CC=clang build build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-asan --print-errorlogs --num-processes 2 --timeout-multiplier 3
    ;;
*)
    echo "usage: bash dev.sh run [server flags...] | bash dev.sh test" >&2
    exit 2
    ;;
esac

#!/bin/sh
# run.sh — compile JdbcTest.java with javac and run it against a throwaway
# Strata server (through harness_run, which sets PGHOST/PGPORT/...).
#
#   sh run.sh HARNESS_RUN WORKDIR
#
# Needs a Java 17 JDK and Debian's libpostgresql-jdbc-java (bash dev.sh test
# installs both); without them the test is skipped (exit 77) with the reason.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
harness_run=$1 work=$2
jar=/usr/share/java/postgresql.jar

for tool in javac java; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (bash dev.sh test installs openjdk-17-jdk-headless)"
        exit 77
    fi
done
if [ ! -f "$jar" ]; then
    echo "SKIP: $jar is missing (bash dev.sh test installs libpostgresql-jdbc-java)"
    exit 77
fi
mkdir -p "$work"
javac -d "$work" -cp "$jar" "$here/JdbcTest.java"
exec "$harness_run" -- java -cp "$work:$jar" JdbcTest

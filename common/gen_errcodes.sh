#!/bin/sh
# Generate errcodes.h from errcodes.txt: one #define per SQLSTATE.
# Usage: gen_errcodes.sh errcodes.txt errcodes.h
set -e
{
  echo "/* Generated from common/errcodes.txt by gen_errcodes.sh; do not edit. */"
  echo "#ifndef STRATA_COMMON_ERRCODES_H"
  echo "#define STRATA_COMMON_ERRCODES_H"
  grep -v '^#' "$1" | grep -v '^[[:space:]]*$' | while read -r code name; do
    echo "#define $name \"$code\""
  done
  echo "#endif"
} > "$2"

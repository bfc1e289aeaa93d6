// check.mjs — the small checking layer shared by the Node client tests
// (pg_test.mjs, postgresjs_test.mjs): every check prints one line saying
// what it verified; a failure names the statement and the difference; a
// known failure (expected, with its reason) is printed as XFAIL and does
// not fail the run, but an expected failure that passes does (so the
// README matrix is kept true).
import { isDeepStrictEqual, inspect } from 'node:util';

let failures = 0;
let passes = 0;
let xfails = 0;

function show(v) {
  return inspect(v, { depth: 6, breakLength: Infinity });
}

/* Known Strata gaps: check name -> reason (printed, never silent). Filled
 * by knownGap() only when the server is Strata, so the same test run
 * against PostgreSQL 15 expects every check to pass. */
export const expectedFailures = new Map();
let serverIsStrata = false;

/* Record the server's version() text (decides whether knownGap applies). */
export function setServerVersion(v) {
  serverIsStrata = /Strata/.test(v);
  console.log(`server: ${v}`);
}

/* knownGap(name, reason): on Strata, check `name` is an expected failure. */
export function knownGap(name, reason) {
  if (serverIsStrata) expectedFailures.set(name, reason);
}

function report(name, stmt, ok, detail) {
  const reason = expectedFailures.get(name);
  if (ok && reason === undefined) {
    passes++;
    console.log(`ok    ${name}`);
  } else if (ok) {
    failures++;
    console.log(`FAIL  ${name}: marked as expected failure (${reason}) but passed; update the test and README`);
  } else if (reason !== undefined) {
    xfails++;
    console.log(`XFAIL ${name}: ${reason}\n      statement: ${stmt}\n      ${detail}`);
  } else {
    failures++;
    console.log(`FAIL  ${name}\n      statement: ${stmt}\n      ${detail}`);
  }
}

/* check(name, stmt, actual, expected): deep equality of JS values. */
export function check(name, stmt, actual, expected) {
  const ok = isDeepStrictEqual(actual, expected);
  report(name, stmt, ok, ok ? '' : `expected ${show(expected)}\n      got      ${show(actual)}`);
  return ok;
}

/* checkRun(name, stmt, fn): fn (async) returns [actual, expected]; an
 * exception is a failure naming the error (and its SQLSTATE). */
export async function checkRun(name, stmt, fn) {
  try {
    const [actual, expected] = await fn();
    return check(name, stmt, actual, expected);
  } catch (e) {
    report(name, stmt, false, `error: ${e.code ? e.code + ' ' : ''}${e.message}`);
    return false;
  }
}

/* checkError(name, stmt, fn, sqlstate): fn must throw with that SQLSTATE. */
export async function checkError(name, stmt, fn, sqlstate) {
  try {
    await fn();
    report(name, stmt, false, `expected error ${sqlstate}, got success`);
  } catch (e) {
    check(name, stmt, e.code, sqlstate);
  }
}

/* Print the totals; the process exit status says whether anything failed. */
export function finish(label) {
  console.log(`${label}: ${passes} passed, ${xfails} expected failures, ${failures} failed`);
  process.exitCode = failures > 0 ? 1 : 0;
}

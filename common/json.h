/*
 * json.h — json and jsonb: input validation, jsonb's canonical form,
 * navigation helpers for the operators (-> ->> #> #>>), and building JSON
 * text from SQL values (to_json, json_agg, jsonb_build_object).
 *
 * Representation (types.h): json keeps the input text as given (validated);
 * jsonb keeps its canonical text: object keys sorted by length then bytes,
 * duplicate keys removed (the last one wins), numbers as numeric prints
 * them (1.0e2 → 100), strings with escapes resolved and re-escaped as
 * PostgreSQL's escape_json, and PostgreSQL's jsonb spacing:
 * '{"a": 1, "b": [1, 2]}'. So jsonb output is the stored text;
 * jsonb_compare/jsonb_hash give PostgreSQL's ordering and equality.
 *
 * Navigation works on either form (both are valid JSON text): results are
 * StrRefs into the document (no copy) except ->> of a string, which is
 * unescaped into the arena.
 *
 * PostgreSQL's spacing for the builders (funcs use these helpers): to_json
 * of an array '[1,2]' (no spaces); json_agg and jsonb_agg '[1, 2]';
 * json_build_object '{"a" : 1, "b" : [1,2]}'; jsonb_build_object (print
 * through jsonb_in) '{"a": "x", "b": 1}'; json_build_array '[1, "a", null]';
 * json_object_agg '{ "1" : 1, "2" : 2 }'.
 *
 * Errors (PostgreSQL's texts): 22P02 invalid input syntax for type json
 * with DETAIL "Token \"x\" is invalid.", "The input string ended
 * unexpectedly.", "Expected \":\", but found \"x\".", ...; 22P05
 * unsupported Unicode escape sequence (\u0000 in jsonb); 54001 when nested
 * deeper than JSON_MAX_DEPTH.
 */
#ifndef STRATA_COMMON_JSON_H
#define STRATA_COMMON_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "common/arena.h"
#include "common/strbuf.h"
#include "common/types.h"

#define JSON_MAX_DEPTH 6400

typedef enum JsonKind {
    JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT
} JsonKind;

/* json: validate, then copy the text into arena as is. */
StrRef json_in(const char *s, size_t len, MemArena *arena);
/* jsonb: validate and produce the canonical text in arena. Also the cast
 * json → jsonb. */
StrRef jsonb_in(const char *s, size_t len, MemArena *arena);

/* The kind of the (valid) JSON value at doc (leading whitespace skipped). */
JsonKind json_kind(StrRef doc);
/* PostgreSQL's json_typeof names: "object", "array", "string", "number",
 * "boolean", "null". */
const char *json_kind_name(JsonKind k);

/* doc -> 'key': the member's value text (json: the last of duplicate keys);
 * false when doc is not an object or has no such key. */
bool json_object_field(StrRef doc, const char *key, size_t key_len, StrRef *out);
/* doc -> idx: the element (idx < 0 counts from the end); false when doc is
 * not an array or idx is out of range. */
bool json_array_element(StrRef doc, int64_t idx, StrRef *out);
/* doc #> '{a,0,b}': each step a key (objects) or an integer (arrays);
 * false when a step fails (PostgreSQL returns NULL then). */
bool json_extract_path(StrRef doc, const StrRef *path, int npath, StrRef *out);
/* The ->> text of a value: a string unescaped (into arena), null → SQL
 * NULL (*is_null), anything else its JSON text (pointing into value). */
StrRef json_value_text(StrRef value, MemArena *arena, bool *is_null);
/* Number of elements of an array, members of an object (-1 for scalars). */
int64_t json_length(StrRef doc);
/* Iterate an array's elements or an object's members: *pos starts at 0;
 * returns false at the end. key is set for objects (raw JSON string text,
 * quotes included), else {NULL,0}. */
bool json_next(StrRef doc, size_t *pos, StrRef *key, StrRef *value);

/* jsonb ordering as PostgreSQL's jsonb btree (compareJsonbContainers):
 * object > array > boolean > number > string > null; arrays and objects
 * with more elements/pairs are greater, then members in stored order (keys
 * by bytes, then values); numbers by value (1.0 = 1); a top-level scalar
 * counts as a one-element array. jsonb_hash agrees with its equality. */
int jsonb_compare(StrRef a, StrRef b);
uint64_t jsonb_hash(StrRef a);

/* Append s as a JSON string literal with PostgreSQL's escape_json rules. */
void json_escape_string(StrBuf *out, const char *s, size_t len);
/* Append the JSON form of a non-NULL SQL value as PostgreSQL's to_json:
 * numbers bare (NaN/Infinity quoted), booleans true/false, json/jsonb as
 * is, arrays as JSON arrays, dates/timestamps as ISO 8601 strings
 * ("2020-01-02T03:04:05", timestamptz with "+00:00"), everything else
 * as its text output, escaped. */
struct OutputOptions;
void json_append_value(SqlType t, const Value *v, StrBuf *out);
/* An object key from a non-NULL scalar, as PostgreSQL's key_scalar
 * conversion: json_append_value's text, always as a JSON string
 * (true → "true", 1.5 → "1.5"). */
void json_append_key(SqlType t, const Value *v, StrBuf *out);

/*
 * Trees, for the functions that rebuild a document (jsonb_set, ||, -, #-,
 * jsonb_strip_nulls, jsonb_pretty, @>). Nodes live in the arena; strings
 * hold unescaped bytes, numbers their canonical numeric text, bools and
 * null the word. Objects keep their parsed order (a jsonb document is
 * already canonical); jsonb_tree_text normalises them (sorted, last
 * duplicate wins) as jsonb_in does.
 */
typedef struct JsonNode {
    JsonKind kind;
    StrRef text;
    uint32_t n;                /* elements or members */
    struct JsonNode **items;   /* array elements or member values */
    StrRef *keys;              /* object keys (unescaped), NULL for arrays */
} JsonNode;

/* Parse valid JSON text (json or jsonb) into a tree. */
JsonNode *json_tree(StrRef doc, MemArena *arena);
/* jsonb's canonical text of a tree, in arena. */
StrRef jsonb_tree_text(JsonNode *n, MemArena *arena);
/* jsonb_pretty's text: four-space indents, one member per line. */
StrRef jsonb_tree_pretty(JsonNode *n, MemArena *arena);

#endif

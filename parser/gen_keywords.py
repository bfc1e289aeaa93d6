#!/usr/bin/env python3
# gen_keywords.py — regenerates the keyword-derived parts of parser/grammar.y
# (the %fallback ID list, the collabel and first bare_label alternatives) and
# the keyword table of parser/keywords.c, from the terminals the grammar uses
# and PostgreSQL 15's keywords (parser/pg15_keywords.txt: "word category
# barelabel" per line, from `select word, catcode, barelabel from
# pg_get_keywords()`). Run after adding a keyword to a rule:
#   python3 parser/gen_keywords.py
import os, re
HERE = os.path.dirname(os.path.abspath(__file__))
kw = {}
for line in open(os.path.join(HERE, 'pg15_keywords.txt')):
    w, c, b = line.split()
    kw[w] = (c, b == 'true')
g = open(os.path.join(HERE, 'grammar.y')).read()
# terminals used in rules (outside %token/%fallback lines and code blocks)
body = re.sub(r'\{[^{}]*\}', '', g)
body = '\n'.join(l for l in body.split('\n') if not l.startswith('%token') and not l.startswith('%fallback') and not l.startswith('%left') and not l.startswith('%right') and not l.startswith('%nonassoc') and not l.startswith('       ') and not l.startswith('             '))
rules = [l for l in body.split('\n') if '::=' in l]
terms = set()
for r in rules:
    for t in re.findall(r'\b([A-Z][A-Z0-9_]*)\b', r.replace('|', ' ')):
        terms.add(t)
terms |= {'NULLS'}  # only seen through the NULLS_LA lookahead (parser.c)
tok = lambda w: 'ANALYZE' if w == 'analyse' else w.upper()
lexical = "ID SCONST ICONST FCONST PARAM OP TYPECAST COLON_EQUALS EQUALS_GREATER DOT_DOT LBRACKET RBRACKET COMMA SEMI COLON OTHER MODE_EXPR".split()
special = set(lexical) | {'NOT_LA', 'WITH_LA', 'UMINUS', 'LP', 'RP', 'DOT', 'PLUS', 'MINUS', 'STAR', 'SLASH', 'PERCENT', 'CARET', 'LT', 'GT', 'EQ', 'LE', 'GE', 'NE'}
entries = []
for w, (c, b) in kw.items():
    t = tok(w)
    if t in terms or c in ('R', 'T'):
        entries.append((w, t, c))
entries.sort()
unused_rt = sorted({t for w, t, c in entries if t not in terms})
fallback = sorted({t for w, t, c in entries if c in ('U', 'C') and t in terms})
rt_tokens = sorted({t for w, t, c in entries if c in ('R', 'T')})
sep_bare = {'AND', 'OR', 'IS', 'IN', 'LIKE', 'ILIKE', 'BETWEEN', 'COLLATE', 'SIMILAR'}
bare = sorted({tok(w) for w, (c, b) in kw.items() if b and c in ('R', 'T')} - sep_bare)
def wrap(words, indent):
    out, line = [], ''
    for x in words:
        if len(line) + len(x) + 1 > 90:
            out.append(line.rstrip()); line = indent
        line += x + ' '
    out.append(line.rstrip())
    return '\n'.join(out)
g = re.sub(r'/\* Reserved and type/function-name keywords the grammar does not use yet. \*/\n%token [^.]*\.',
           '/* Reserved and type/function-name keywords the grammar does not use yet\n * (generated from PostgreSQL 15\'s keyword list). */\n%token ' + wrap(unused_rt, '       ') + '.', g)
g = re.sub(r'%fallback ID [^.]*\.', '%fallback ID ' + wrap(fallback, '             ') + '.', g)
g = re.sub(r'collabel\(A\) ::= ID\|[A-Z_|]*\(N\)\.', 'collabel(A) ::= ID|' + '|'.join(rt_tokens) + '(N).', g)
g = re.sub(r'bare_label\(A\) ::= [A-Z_|]*\(N\)\. \{ A = N; \}', 'bare_label(A) ::= ' + '|'.join(bare) + '(N). { A = N; }', g, count=1)
open(os.path.join(HERE, 'grammar.y'), 'w').write(g)
cat = {'U': 'U', 'C': 'C', 'T': 'T', 'R': 'R'}
k = open(os.path.join(HERE, 'keywords.c')).read()
table = 'static const ParseKeyword keywords[] = {\n' + ''.join('    {"%s", TK_%s, %s},\n' % (w, t, c) for w, t, c in entries) + '};'
k = re.sub(r'static const ParseKeyword keywords\[\] = \{.*?\n\};', table, k, flags=re.S)
open(os.path.join(HERE, 'keywords.c'), 'w').write(k)
print(len(entries), 'keywords;', len(fallback), 'fallback;', len(unused_rt), 'unused R/T')

#!/usr/bin/env python3
# extract_pgwire_statements.py — regenerates tests/unit/pgwire_statements.txt
# (read by tests/unit/test_parser_corpus.c) from the client captures in
# /work/shared/pgwire/*.sql: statements are the blocks between blank lines,
# without their "--" comment lines and without server log lines that the
# capture interleaved; each is preceded by "-- @ file:line".
# Run from anywhere: python3 parser/extract_pgwire_statements.py
# Extracts every statement of /work/shared/pgwire/*.sql into
# tests/unit/pgwire_statements.txt: blocks separated by blank lines, "--"
# comment lines dropped, each statement preceded by "-- @ file:line".
import glob, os, re
LOGLINE = re.compile(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ UTC \[\d+\] ')
out = []
for path in sorted(glob.glob('/work/shared/pgwire/*.sql')):
    name = os.path.basename(path)
    lines = open(path, encoding='utf-8').read().split('\n')
    block, start = [], None
    def flush():
        body = [l for l in block if not l.lstrip().startswith('--') and not LOGLINE.match(l)]
        text = '\n'.join(body).strip()
        if text:
            out.append('-- @ %s:%d\n%s' % (name, start, text))
    for i, l in enumerate(lines, 1):
        if l.strip() == '':
            flush(); block, start = [], None
        else:
            if start is None or (not block or all(x.lstrip().startswith('--') for x in block)):
                if not l.lstrip().startswith('--') and (start is None or all(x.lstrip().startswith('--') for x in block)):
                    start = i
            block.append(l)
    flush()
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'unit', 'pgwire_statements.txt'), 'w', encoding='utf-8').write('\n'.join(out) + '\n')
print(len(out), 'statements')

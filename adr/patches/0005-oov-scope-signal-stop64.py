#!/usr/bin/env python3
"""Stop 64 (ADR 0005): would "many of the question's words are not the Constitution's" plus a
slight lean of the scope vote refuse more out-of-scope questions? Measured, not kept.

Inputs (each a `nyaya eval --answers --dump F` file; the vote margins are read from the dumps,
which hold out each question's near-copies in the bank):
  corpus.txt   psql -At "$DATABASE_URL" -c "select heading || ' ' || text from chunks" > corpus.txt
  written      nyaya eval --golden data/train/written.jsonl --answers --dump written.jsonl
  oos          the lines of data/train/out_of_scope.jsonl as a golden file (id, split "dev",
               question, category "out_of_scope", expected_refs [], must_refuse true), then
               nyaya eval --golden oos_golden.jsonl --split dev --answers --dump oos.jsonl
  others       nyaya eval --golden eval/outside/scope_fresh.jsonl --split dev --answers --dump sf.jsonl,
               nyaya eval --split dev --answers --dump dev.jsonl, and en_fresh / common alike
Usage: python3 0005-oov-scope-signal-stop64.py corpus.txt written.jsonl oos.jsonl sf.jsonl dev.jsonl ...
"""
import json, re, sys, tomllib


def words_of(x, into):
    if isinstance(x, str):
        into.update(re.findall(r"[a-z]+", x.lower()))
    elif isinstance(x, list):
        for y in x:
            words_of(y, into)
    elif isinstance(x, dict):
        for y in x.values():
            words_of(y, into)


corpus = open(sys.argv[1]).read().lower()
vocab = set(re.findall(r"[a-z]+", corpus))
stems = {w[:5] for w in vocab if len(w) >= 5}
glossary, function = set(), set()
for f in ("data/glossary.toml", "data/glossary_hi.toml"):
    words_of(tomllib.load(open(f, "rb")), glossary)
words_of(tomllib.load(open("data/support.toml", "rb")), function)


def oov(q):
    ws = [w for w in re.findall(r"[a-z]+", q.lower()) if len(w) >= 3 and w not in function]
    if not ws:
        return 0.0
    bad = [w for w in ws if not (w in vocab or w in glossary or (len(w) >= 5 and w[:5] in stems))]
    return len(bad) / len(ws)


def rows(f):
    for l in open(f):
        d = json.loads(l)
        u, a = d.get("unpinned") or {}, d.get("answer") or {}
        yield d["must_refuse"], a.get("refused"), u.get("bank_margin"), oov(d["question"])


for t, m in [(0.2, -0.05), (0.25, -0.05), (0.3, -0.05), (0.25, -0.1), (0.3, -0.1)]:
    out = []
    for f in sys.argv[2:]:
        new = [r for r in rows(f) if not r[1] and r[3] >= t and r[2] is not None and r[2] >= m]
        out.append("%s +%d/-%d" % (f.split("/")[-1], sum(r[0] for r in new), sum(not r[0] for r in new)))
    print("oov >= %.2f, margin >= %.2f: newly refused (must refuse / must answer):" % (t, m), ", ".join(out))

for f in sys.argv[2:]:
    r = list(rows(f))
    print("%s: share of questions with oov >= 0.3: %.3f (of %d)" % (f.split("/")[-1], sum(x[3] >= 0.3 for x in r) / len(r), len(r)))

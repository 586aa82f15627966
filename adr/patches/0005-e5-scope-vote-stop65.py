"""The e5 scope vote, measured at stop 65 (ADR 0005): not kept.

Reads pairs of `nyaya eval --answers --dump` files of one set, `BEFORE:PROBE`, where BEFORE is
the shipped binary's dump (its `bank_margin` is MiniLM's scope-vote margin) and PROBE the dump
of a binary built with `git apply adr/patches/0005-e5-scope-vote-probe-stop65.patch` and run
with `NYAYA_E5_SCOPE_PROBE=1` (its `bank_margin` is e5's margin over the cross-lingual bank, with
the unanswerable questions embedded by e5 too). Prints, for rules that only add refusals,
how many must-refuse questions (first number) and answerable ones (second) each would newly
refuse among those answered today and naming no provision:

    python3 adr/patches/0005-e5-scope-vote-stop65.py \
        /tmp/h_sfd.jsonl:/tmp/p_sfd.jsonl /tmp/h_osd.jsonl:/tmp/p_osd.jsonl \
        /tmp/h_dev.jsonl:/tmp/p_dev.jsonl
"""
import json,sys,re
NAMED=re.compile(r'\b(article|art\.?|schedule|preamble)\b\s*[\dIVXivx]*',re.I)
def load(f):
    return {json.loads(l)['id']:json.loads(l) for l in open(f)}
pairs=[(a,b) for a,b in [x.split(':') for x in sys.argv[1:]]]
rows=[]
for a,b in pairs:
    A=load(a);B=load(b)
    for k,d in A.items():
        if k not in B: continue
        mm=d['unpinned'].get('bank_margin'); me=B[k]['unpinned'].get('bank_margin')
        rows.append((a.split('/')[-1],d['must_refuse'],d['answer']['refused'],mm,me,bool(NAMED.search(d['question'])),d['question']))
def ev(rule):
    out={}
    for s,mr,ref,mm,me,named,q in rows:
        if mm is None or me is None or named or ref: continue
        if rule(mm,me):
            o=out.setdefault(s,[0,0]); o[0 if mr else 1]+=1
    return out
print('base counts', {s:(sum(1 for r in rows if r[0]==s and r[1]), sum(1 for r in rows if r[0]==s and not r[1])) for s in set(r[0] for r in rows)})
for k in [0.5,1,2,3,4]:
    print('sum k',k, ev(lambda mm,me,k=k: mm+k*me>0.05))
for t in [0.0,0.01,0.02,0.03,0.05]:
    print('e5 alone >',t, ev(lambda mm,me,t=t: me>t))

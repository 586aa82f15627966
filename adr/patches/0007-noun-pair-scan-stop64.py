#!/usr/bin/env python3
# Stop 64 (FAILURES §9): which questions a split of "X and Y" would cut, when X and Y are
# glossary terms of different entries whose refs differ. Skips the golden test split.
# Usage: python3 adr/patches/0007-noun-pair-scan-stop64.py eval/golden/single_turn.jsonl \
#   data/train/written.jsonl eval/written/en_fresh.jsonl eval/written/common.jsonl
import json,re,sys,tomllib
g=tomllib.load(open('data/glossary.toml','rb'))['entry']
terms=[]
for i,e in enumerate(g):
    if not e.get('refs'): continue
    for t in e['terms']:
        terms.append((t,i,tuple(e['refs'])))
terms.sort(key=lambda x:-len(x[0]))
alt='|'.join(re.escape(t).replace(r'\ ',r'[\s-]+') for t,_,_ in terms)
PAIR=re.compile(r"\b(?:the\s+)?(?P<a>"+alt+r")(?:'?s|es)?\s+and\s+(?:the\s+)?(?P<b>"+alt+r")(?:'?s|es)?\b",re.I)
def entry(s):
    s=s.lower()
    for t,i,r in terms:
        if re.fullmatch(re.escape(t).replace(r'\ ',r'[\s-]+'),s): return i,r
def pair(q):
    if len(q.split())>25 or re.search(r'\b(between|both|vs|versus|difference|compare)\b',q,re.I): return None
    m=PAIR.search(q)
    if not m: return None
    ea,eb=entry(m.group('a')),entry(m.group('b'))
    if not ea or not eb or ea[0]==eb[0] or set(ea[1])&set(eb[1]): return None
    return (q[:m.start()]+m.group(0).split(' and ')[0]+q[m.end():], q[:m.start()]+re.sub(r'^.*?\band\s+','',m.group(0))+q[m.end():], ea[1], eb[1])
n=0
for f in sys.argv[1:]:
    for l in open(f):
        d=json.loads(l)
        if d.get('split')=='test': continue
        q=d.get('question'); 
        if not q: continue
        r=pair(q)
        if r: n+=1; print(f.split('/')[-1],d.get('expected_refs') or d.get('ref'),'|',q,'->',r)
print(n)

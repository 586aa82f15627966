"""ADR 0005, stop 58: a bar on how distinctive the shared word is (measured, not kept).

Replays the shared-word refusal over `nyaya eval --answers --dump F` files: for each answered
question in Latin letters that names no provision, the stems (first four letters, function
words of data/support.toml left out) it shares with its quotes and cited headings, and the
largest inverse provision frequency among them, ln(N / (1 + df)), over the newest edition's
provisions in force (read by psql from $DATABASE_URL, a stored corpus). Prints, per
dump, how many answerable and must-refuse answers a bar would refuse.

It reads only the question (not the glossary's added words, which the dump does not hold), so
it over-counts what a bar would refuse among answerable questions.

    python3 adr/patches/0005-distinctive-word-bar-stop58.py /tmp/sfd.jsonl /tmp/dev.jsonl …
"""
import json, re, math, os, subprocess, sys, tomllib, collections
fw = set(tomllib.load(open('data/support.toml','rb'))['function_words'])
def stems(t):
    out=set()
    for w in re.split(r'[^A-Za-z]+', t):
        if len(w)<3: continue
        w=w.lower()
        if w in fw: continue
        out.add(w[:4])
    return out
rows = subprocess.run(['psql', os.environ.get('DATABASE_URL', 'postgres://postgres@127.0.0.1:54419/nyaya'),'-At','-F','\t','-c',
  "select ref_id, title, regexp_replace(text, E'[\\t\\n]', ' ', 'g') from provisions where document_id=(select max(id) from documents) and status='in_force'"],capture_output=True,text=True).stdout.splitlines()
title={}; df=collections.Counter(); N=0
for l in rows:
    ref,t,x=l.split('\t',2); title[ref]=t; N+=1
    for s in stems(t+' '+x): df[s]+=1
def idf(s): return math.log(N/(1+df[s]))
lookup=re.compile(r'\b(article|art\.?|schedule|anuchhed|section)\s*[0-9IVXL]', re.I)
def analyse(path):
    out=[]
    for l in open(path):
        r=json.loads(l); a=r['answer']
        if a['refused'] or not a['cited']: continue
        q=r['question']
        if not q.isascii() or lookup.search(q): continue
        shown=' '.join(a['quotes'])+' '+' '.join(title.get(c,'') for c in a['cited'])
        sh=stems(q)&stems(shown)
        best=max((idf(s) for s in sh), default=0.0)
        out.append((best, r['must_refuse'], r['id'], q[:90], sorted(sh, key=idf)[-3:]))
    return out
if __name__=='__main__':
    for p in sys.argv[1:]:
        res=analyse(p)
        ans=[x for x in res if not x[1]]; ref=[x for x in res if x[1]]
        print(p, 'answerable answered', len(ans), 'must-refuse answered', len(ref))
        for th in [0.5,1.0,1.5,2.0,2.5,3.0]:
            print(f'  max idf < {th}: answerable {sum(x[0]<th for x in ans)}  must-refuse {sum(x[0]<th for x in ref)}')
        for x in sorted(ref)[:20]: print('   R', round(x[0],2), x[2], x[3], x[4])

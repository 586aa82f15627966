# Stop 59 (ADR 0004): MiniLM alone, over the 2024 chunks (best chunk per provision), for the
# en_fresh, golden dev and fresh-clause dev questions that name a glossary term: the question
# as written, with the glossary phrases appended (what the dense leg embeds), and with each
# term replaced in place by its first phrase. Needs a running Postgres with the corpus (DB
# below) and minilm_embed.py beside it (MiniLM through onnxruntime). Approximate: the terms are matched
# by a regex, not by search::glossary. Run: python3 adr/patches/0004-glossary-in-place-stop59.py
import json, re, sys, subprocess, numpy as np, tomllib
ROOT=__import__('os').path.dirname(__import__('os').path.dirname(__import__('os').path.dirname(__import__('os').path.abspath(__file__))))
sys.path.insert(0, __import__('os').path.dirname(__file__)); from minilm_embed import embed as mini
DB='postgres://postgres@127.0.0.1:54419/nyaya'
def q(sql):
    out=subprocess.run(['psql',DB,'-At','-F','\x1f','-R','\x1e','-c',sql],capture_output=True,text=True).stdout
    return [r.split('\x1f') for r in out.split('\x1e') if r]
rows=q("select ref_id, embedding::text from chunks where document_id=1 and embedding is not null")
refs=[r[0] for r in rows]; V=np.array([json.loads(r[1]) for r in rows],dtype=np.float32); V/=np.linalg.norm(V,axis=1,keepdims=True)
g=tomllib.load(open(ROOT+'/data/glossary.toml','rb'))
ents=[]
for e in g['entry']:
    if not e.get('expand'): continue
    for t in e['terms']:
        pat=re.escape(t).replace(r'\ ',r'[\s-]+').replace(r'\-',r'[\s-]+')
        ents.append((len(t),re.compile(r"(?i)\b"+pat+r"(?:'s|s|es)?\b"),e['expand'][0]))
ents.sort(key=lambda x:-x[0])
def rewrite(qs):
    out=qs; added=[]; hit=False
    for _,rx,ph in ents:
        if rx.search(out):
            hit=True; added.append(ph); out=rx.sub(ph,out)
    return hit,out,added
def rank(v):
    s=V@v; best={}
    for r,x in zip(refs,s):
        if x>best.get(r,-9): best[r]=x
    return [r for r,_ in sorted(best.items(),key=lambda t:-t[1])]
cases=[]
for f,getq in [(ROOT+'/eval/written/en_fresh.jsonl',lambda r:(r['question'],[r['ref']])),(ROOT+'/eval/golden/single_turn.jsonl',lambda r:(r['question'],r['expected_refs']) if r.get('split')=='dev' and not r['must_refuse'] else None),(ROOT+'/eval/written/clauses_fresh.jsonl',lambda r:(r['question'],r['expected_refs']) if r.get('split')=='dev' else None)]:
    for l in open(f):
        x=getq(json.loads(l))
        if not x: continue
        hit,rw,added=rewrite(x[0])
        if hit: cases.append((f.split('/')[-1],x[0],rw,x[0].rstrip()+' ('+'; '.join(added)+')',x[1]))
print(len(cases))
A=mini([c[3] for c in cases]); B=mini([c[2] for c in cases]); O=mini([c[1] for c in cases])
def m(E):
    r1=r5=mrr=0
    for c,v in zip(cases,E):
        rk=rank(v); pos=[i for i,r in enumerate(rk[:10]) if r in c[4]]
        if pos: mrr+=1/(pos[0]+1); r1+=pos[0]==0; r5+=pos[0]<5
    n=len(cases); return f"R1 {r1/n:.3f} R5 {r5/n:.3f} MRR {mrr/n:.3f}"
print('original  ',m(O)); print('appended  ',m(A)); print('in place  ',m(B))
for tag in ['en_fresh.jsonl','single_turn.jsonl','clauses_fresh.jsonl']:
    idx=[i for i,c in enumerate(cases) if c[0]==tag]
    sub=lambda E:[E[i] for i in idx]
    cs=cases
    cases=[cs[i] for i in idx]
    print(tag,len(idx),'app',m(sub(A)),'| inplace',m(sub(B)))
    cases=cs

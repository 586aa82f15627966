# Stop 59 (ADR 0007): does multilingual-e5-small choose the clause that answers better than
# MiniLM? Offline measurement over the dev halves only (golden dev, eval/written/clauses.jsonl
# and clauses_fresh.jsonl dev): for each answerable case whose expected provision has two or
# more clauses and whose evidence lies in some but not all of them, each clause (the `clauses`
# table's spans of the 2024 edition) is scored by MiniLM's cosine, e5's cosine (query:/passage:
# via the engine `make setup` compiles, through ctypes), the share of the question's words, and
# sums of them; a case counts when the top clause holds the evidence.
# Needs: a running Postgres with the corpus (DB below), minilm_embed.py beside it (MiniLM
# through onnxruntime), numpy, tokenizers, onnxruntime.
# Run: python3 adr/patches/0007-e5-span-choice-stop59.py  (about 12 minutes on one core)
import json, sys, re, ctypes, numpy as np, subprocess, pickle, os
sys.path.insert(0, __import__('os').path.dirname(__file__))
from minilm_embed import embed as mini
DB='postgres://postgres@127.0.0.1:54419/nyaya'
def q(sql):
    out=subprocess.run(['psql',DB,'-At','-F','\x1f','-R','\x1e','-c',sql],capture_output=True,text=True).stdout
    return [r.split('\x1f') for r in out.split('\x1e') if r]
texts={r[0]:r[1] for r in q("select ref_id, text from provisions where document_id=1")}
clauses={}
for ref,label,s,e in q("select ref_id,label,start_char,end_char from clauses where document_id=1 order by ref_id, start_char"):
    clauses.setdefault(ref,[]).append((label,int(s),int(e)))
norm=lambda t:' '.join(t.split())
cases=[]
for f,tag in [(ROOT+'/eval/golden/single_turn.jsonl','gold'),(ROOT+'/eval/written/clauses.jsonl','cl'),(ROOT+'/eval/written/clauses_fresh.jsonl','cf')]:
    for l in open(f):
        r=json.loads(l)
        if r.get('split')!='dev' or r['must_refuse'] or not r.get('evidence'): continue
        ev=norm(re.sub(r'^p\.\s*\d+\s*:\s*','',r['evidence']))
        for ref in r['expected_refs'][:1]:
            if ref not in clauses or len(clauses[ref])<2: continue
            t=texts[ref]
            spans=[(lab,norm(t[s:e])) for lab,s,e in clauses[ref]]
            hit=[ev.lower() in sp.lower() for _,sp in spans]
            if not any(hit) or all(hit): continue
            cases.append(dict(tag=tag,id=r['id'],q=r['question'],ref=ref,spans=spans,hit=hit))
print(len(cases), {t:sum(c['tag']==t for c in cases) for t in ['gold','cl','cf']})
# e5
lib=ctypes.CDLL(ROOT+'/.cache/models/multilingual-e5-small/libe5.so')
lib.e5_load.restype=ctypes.c_void_p; lib.e5_load.argtypes=[ctypes.c_char_p]
lib.e5_dim.argtypes=[ctypes.c_void_p]
lib.e5_embed.argtypes=[ctypes.c_void_p,ctypes.c_char_p,ctypes.c_int,ctypes.POINTER(ctypes.c_float)]
m=lib.e5_load(bROOT+'/.cache/models/multilingual-e5-small/e5-small-q4.bin'); D=lib.e5_dim(m)
cache_f='/tmp/e5cache.pkl'; cache=pickle.load(open(cache_f,'rb')) if os.path.exists(cache_f) else {}
def e5(t,isq):
    k=(t,isq)
    if k not in cache:
        buf=(ctypes.c_float*D)(); lib.e5_embed(m,t.encode(),isq,buf); v=np.array(buf[:],dtype=np.float32); cache[k]=v/np.linalg.norm(v)
    return cache[k]
STOP=set('the a an of to in and or for is are be by on with as at can what who which how does do any its it this that shall may under from not his her their'.split())
def terms(t): return {w for w in re.findall(r'[a-z]+',t.lower()) if w not in STOP and len(w)>2}
res=[]
for i,c in enumerate(cases):
    sp=[s for _,s in c['spans']]
    qm=mini([c['q']])[0]; sm=mini(sp)
    qe=e5(c['q'],1); se=np.array([e5(s,0) for s in sp])
    qt=terms(c['q']); lex=np.array([len(qt&terms(s))/max(1,len(qt)) for s in sp])
    c['mini']=sm@qm; c['e5']=se@qe; c['lex']=lex
    if i%50==0: print(i, flush=True); pickle.dump(cache,open(cache_f,'wb'))
pickle.dump(cache,open(cache_f,'wb'))


# ---- the table ----
import pickle, numpy as np
ROOT=__import__('os').path.dirname(__import__('os').path.dirname(__import__('os').path.dirname(__import__('os').path.abspath(__file__))))
def acc(f, tag=None):
    cs=[c for c in cases if tag is None or c['tag']==tag]
    return np.mean([c['hit'][int(np.argmax(f(c)))] for c in cs]), len(cs)
fs={
 'mini':lambda c:c['mini'],
 'mini+.25lex':lambda c:c['mini']+.25*c['lex'],
 'e5':lambda c:c['e5'],
 'e5+.25lex':lambda c:c['e5']+.25*c['lex'],
 'e5+.1lex':lambda c:c['e5']+.1*c['lex'],
 'mini+e5+.25lex':lambda c:c['mini']+c['e5']+.25*c['lex'],
 'mini+2e5+.25lex':lambda c:c['mini']+2*c['e5']+.25*c['lex'],
 'mini+e5+.5lex':lambda c:c['mini']+c['e5']+.5*c['lex'],
 'random-first':lambda c:-np.arange(len(c['hit'])),
}
print(f"{'f':18}", *[f"{t:>8}" for t in ['gold','cl','cf','all']])
for k,f in fs.items():
    print(f"{k:18}", *[f"{acc(f,t)[0]:8.3f}" for t in ['gold','cl','cf',None]])
print('n', [acc(fs['e5'],t)[1] for t in ['gold','cl','cf',None]])

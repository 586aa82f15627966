"""ADR 0008, stop 57: the question bank read by its words (TF-IDF over the written questions,
each provision scored by its best question), added to the answer's five retrieval scores as
`w * (score - the head's best)`, replayed over `nyaya eval --answers --dump` files. Measured,
not kept. Not run by any test or target; kept so that the ADR's table can be reproduced.

    python3 0008-lexical-bank-stop57.py DIR enf,dev,cld,cfd,df 0,1,2,4,8 [--gen]

DIR holds `<set>.jsonl` dumps; `--gen` adds data/train/questions.jsonl to the bank.
"""
import json, re, math, sys, collections
W=''
STOP=set("a an the of to in on for by and or is are was were be been can could may might shall will would should do does did what which who whom whose when where why how if it its this that these those i my me we our you your he she they them their his her with as at from under than then there any all not no yes about into over after before such also only just get got has have had being per one".split())
def toks(s):
    s=s.lower()
    w=re.findall(r"[a-z0-9]+",s)
    out=[]
    for x in w:
        if x in STOP or len(x)<2: continue
        # light stemming
        for suf in ('ing','ed','es','s'):
            if len(x)>4 and x.endswith(suf): x=x[:-len(suf)]; break
        out.append(x)
    return out
bank=[json.loads(l) for l in open(W+'data/train/written.jsonl')]
if '--gen' in sys.argv: bank+= [json.loads(l) for l in open(W+'data/train/questions.jsonl')]
docs=[(b['ref'],toks(b['question']),b['question']) for b in bank]
df=collections.Counter()
for _,t,_ in docs: df.update(set(t))
N=len(docs)
idf={w:math.log((N+1)/(c+0.5)) for w,c in df.items()}
def vec(t):
    c=collections.Counter(t); v={w:(1+math.log(n))*idf.get(w,math.log(N+1)) for w,n in c.items()}
    norm=math.sqrt(sum(x*x for x in v.values())) or 1
    return {w:x/norm for w,x in v.items()}
dvecs=[(r,vec(t),set(t)) for r,t,_ in docs]
inv=collections.defaultdict(list)
for i,(r,v,_) in enumerate(dvecs):
    for w in v: inv[w].append(i)
def lexbank(q):
    qt=toks(q); qv=vec(qt); qs=set(qt)
    best={}
    cand=set(i for w in qv for i in inv.get(w,[]))
    for i in cand:
        r,v,s=dvecs[i]
        # holdout: near-copies of the evaluated question
        if qs and len(qs&s)/len(qs|s)>=0.6: continue
        sc=sum(qv[w]*v[w] for w in qv if w in v)
        if sc>best.get(r,0): best[r]=sc
    return best
DUMPS=sys.argv[1]; sets=sys.argv[2].split(',')
ws=[float(x) for x in sys.argv[3].split(',')]
for f in sets:
    rows=[json.loads(l) for l in open('%s/%s.jsonl'%(DUMPS,f))]
    res={w:[0,0,0] for w in ws}
    for r in rows:
        if r['must_refuse'] or r['answer']['refused'] or not r['answer'].get('scores'): continue
        exp=set(r['expected'])|set(r.get('acceptable',[]))
        sc=r['answer']['scores']
        lb=lexbank(r['question'])
        top=max([lb.get(ref,0) for ref,_ in sc]+[0])
        base=sc[0][0] in exp
        for w in ws:
            new=max(sc,key=lambda x:x[1]+w*(lb.get(x[0],0)-top))[0]
            ok=new in exp
            res[w][0]+=ok; res[w][1]+= ok and not base; res[w][2]+= base and not ok
    tot=sum(1 for r in rows if not r['must_refuse'] and not r['answer']['refused'] and r['answer'].get('scores'))
    print(f, tot, ' '.join('w%g:%d(+%d/-%d)'%(w,*res[w]) for w in ws))

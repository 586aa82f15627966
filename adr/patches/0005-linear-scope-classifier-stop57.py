"""ADR 0005, stop 57: a logistic regression on MiniLM vectors of the question bank (answerable
`data/train/written.jsonl` against unanswerable `data/train/out_of_scope.jsonl`), and what a
probability bar would newly refuse on the dev-side sets. Measured, not kept. Not run by any
test or target; kept so that the ADR's table can be reproduced.

Needs: numpy, tokenizers and onnxruntime==1.32.0 (pip, in a venv); `make setup`'s model folder;
the stored bank vectors, dumped by
    psql "$DATABASE_URL" -At -c "copy (select text, embedding from bank_vectors
        where model_id like 'sentence%') to stdout" > bank.tsv
and `nyaya eval [--golden <set>] [--split dev] --answers --dump DIR/<name>.jsonl` for each set.

    python 0005-linear-scope-classifier-stop57.py bank.tsv DIR enf,dev,cfd,cld,df,scd,sfd 1e-4
"""
import json, sys
import numpy as np

# MiniLM mean-pooled and unit-length, as `nyaya` embeds a question (minilm_embed.py beside it).
sys.path.insert(0, __import__('os').path.dirname(__file__)); from minilm_embed import embed


def fit(X, y, l2, steps=3000, lr=2.0):
    """Logistic regression, classes weighted equally, full-batch gradient descent."""
    w, b = np.zeros(X.shape[1]), 0.0
    cw = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    for _ in range(steps):
        g = (1 / (1 + np.exp(-(X @ w + b))) - y) * cw
        w -= lr * (X.T @ g / len(y) + l2 * w)
        b -= lr * g.mean()
    return w, b


bank_tsv, dumps, sets, l2 = sys.argv[1], sys.argv[2], sys.argv[3].split(','), float(sys.argv[4])
stored = {}
for line in open(bank_tsv):
    text, vec = line.rstrip('\n').split('\t')
    stored[text] = np.array([float(x) for x in vec.strip('{}').split(',')])
answerable = [json.loads(l)['question'] for l in open('data/train/written.jsonl')]
unanswerable = [json.loads(l)['question'] for l in open('data/train/out_of_scope.jsonl')]
X = np.array([stored[q] for q in answerable + unanswerable])
y = np.r_[np.zeros(len(answerable)), np.ones(len(unanswerable))]
w, b = fit(X, y, l2)
print('training accuracy %.3f' % (((X @ w + b > 0) == y).mean()))
for name in sets:
    rows = [json.loads(l) for l in open('%s/%s.jsonl' % (dumps, name))]
    p = 1 / (1 + np.exp(-(embed([r['question'] for r in rows]) @ w + b)))
    latin = np.array([r['question'].isascii() for r in rows])
    must = np.array([r['must_refuse'] for r in rows])
    refused = np.array([r['answer']['refused'] for r in rows])
    line = [name, 'must-refuse answered %d' % (must & ~refused & latin).sum(),
            'answerable answered %d' % (~must & ~refused & latin).sum()]
    for bar in (0.8, 0.9, 0.95, 0.98):
        hit = (p > bar) & latin & ~refused
        line.append('%.2f: caught %d, newly refused %d' % (bar, (hit & must).sum(), (hit & ~must).sum()))
    print(' | '.join(line))

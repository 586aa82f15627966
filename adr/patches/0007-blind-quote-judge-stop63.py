#!/usr/bin/env python3
"""Stop 63's blind comparison of the first quote of two answer dumps (ADR 0007, stop 63).

  pairs:  python3 adr/patches/0007-blind-quote-judge-stop63.py pairs BEFORE_FRESH AFTER_FRESH \
              BEFORE_WRITTEN AFTER_WRITTEN OUT_DIR
          (dumps from `nyaya eval --golden eval/written/en_fresh.jsonl --answers --dump F` and
          `... data/train/written.jsonl ...`, before and after). Writes OUT_DIR/pairs.json (what
          the judge sees: question, provision, quotes A and B) and OUT_DIR/key.json (which is which).
  score:  python3 adr/patches/0007-blind-quote-judge-stop63.py score OUT_DIR
          reads OUT_DIR/verdicts.jsonl ({"n", "better": "A"|"B"|"same"}) and counts new/old/same.

Only answers whose first citation is the same in both dumps and whose first quote changed are
compared: every one from the fresh set, 64 drawn from the written set (seed 11); A/B order by seed 5.
The stop-63 verdicts are `0007-blind-quote-judge-stop63.verdicts.jsonl` beside this file.
"""
import collections
import json
import random
import sys


def load(path):
    return {d["id"]: d for d in map(json.loads, open(path))}


def changed(before, after):
    out = []
    for k, a in before.items():
        x, y = a.get("answer") or {}, after[k].get("answer") or {}
        if not x.get("quotes") or not y.get("quotes"):
            continue
        if x["cited"][:1] == y["cited"][:1] and x["quotes"][0] != y["quotes"][0]:
            out.append((k, a["question"], x["cited"][0], x["quotes"][0], y["quotes"][0]))
    return out


def pairs(bf, af, bw, aw, out_dir):
    rows = [("fresh",) + r for r in changed(load(bf), load(af))]
    written = changed(load(bw), load(aw))
    random.seed(11)
    rows += [("written",) + r for r in random.sample(written, min(64, len(written)))]
    random.seed(5)
    shown, key = [], []
    for n, (src, k, q, ref, old, new) in enumerate(rows, 1):
        flip = random.random() < 0.5
        a, b = (new, old) if flip else (old, new)
        shown.append({"n": n, "question": q, "provision": ref, "A": a, "B": b})
        key.append({"n": n, "src": src, "id": k, "A_is": "new" if flip else "old"})
    json.dump(shown, open(f"{out_dir}/pairs.json", "w"), indent=1, ensure_ascii=False)
    json.dump(key, open(f"{out_dir}/key.json", "w"))
    print(len(shown), "pairs")


def score(out_dir):
    key = {k["n"]: k for k in json.load(open(f"{out_dir}/key.json"))}
    counts = collections.Counter()
    for v in map(json.loads, open(f"{out_dir}/verdicts.jsonl")):
        k = key[v["n"]]
        if v["better"] == "same":
            won = "same"
        else:
            won = "new" if (v["better"] == "A") == (k["A_is"] == "new") else "old"
        counts[(k["src"], won)] += 1
    for (src, won), n in sorted(counts.items()):
        print(src, won, n)


if __name__ == "__main__":
    if sys.argv[1] == "pairs":
        pairs(*sys.argv[2:7])
    else:
        score(sys.argv[2])

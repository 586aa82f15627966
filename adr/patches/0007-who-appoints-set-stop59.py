# Stop 59 (ADR 0007): the 49 questions of the written bank and the fresh English set that ask
# who appoints, elects, nominates, chooses or selects, written as a set `nyaya eval --golden`
# reads (the fresh English set's form). Then, with each build:
#   python3 adr/patches/0007-who-appoints-set-stop59.py > /tmp/who.jsonl
#   nyaya eval --golden /tmp/who.jsonl --answers --json --dump /tmp/who_<build>.jsonl
# and compare the dumps' `answer.cited` and `answer.quotes` row by row.
import json, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ASKS = re.compile(
    r"who appoint|who will appoint|who can appoint|who shall appoint|appointed by whom|"
    r"who elect|who will elect|who can elect|elected by whom|who nominat|who can nominate|"
    r"nominated by whom|who choos|who select|who has the power to appoint",
    re.I,
)
out = []
for f in ["data/train/written.jsonl", "eval/written/en_fresh.jsonl"]:
    for line in open(os.path.join(ROOT, f)):
        r = json.loads(line)
        if ASKS.search(r["question"]):
            out.append({"question": r["question"], "ref": r["ref"], "lang": "en",
                        "form": "written", "group": f"who-{len(out)}", "wording": "plain"})
for r in out:
    sys.stdout.write(json.dumps(r) + "\n")
print(len(out), file=sys.stderr)

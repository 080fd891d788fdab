"""Keeps of promptfoo's results.json what `waver import promptfoo` reads (and a little context), so the
committed fixture stays small: HTTP headers, token counts, latencies and the prompts' metrics are left out.
Usage: python3 trim.py IN.json OUT.json"""
import json
import sys

d = json.load(open(sys.argv[1]))
KEEP = ["promptIdx", "testIdx", "prompt", "provider", "vars", "success", "score",
        "error", "failureReason"]
results = []
for r in d["results"]["results"]:
    out = {k: r[k] for k in KEEP if k in r}
    out["prompt"] = {k: r["prompt"][k] for k in ("raw", "label") if k in r["prompt"]}
    out["response"] = {k: r["response"][k] for k in ("output", "finishReason") if k in (r.get("response") or {})}
    out["testCase"] = {k: r["testCase"][k] for k in ("vars", "assert", "description") if k in r["testCase"]}
    g = r.get("gradingResult") or {}
    out["gradingResult"] = {"pass": g.get("pass"), "score": g.get("score"), "reason": g.get("reason"),
                            "componentResults": [{k: c.get(k) for k in ("pass", "score", "assertion")}
                                                 for c in g.get("componentResults", [])]}
    results.append(out)
trimmed = {
    "evalId": d["evalId"],
    "results": {"version": d["results"]["version"], "timestamp": d["results"]["timestamp"], "results": results},
    "config": {k: d["config"][k] for k in ("description", "prompts", "providers", "tests") if k in d["config"]},
    "metadata": {k: d["metadata"][k] for k in ("promptfooVersion", "exportedAt") if k in d["metadata"]},
}
json.dump(trimmed, open(sys.argv[2], "w"), separators=(",", ":"))

"""lm-evaluation-harness's perplexity (loglikelihood_rolling) through `waver serve`, against the texts' own score.

Usage: python lm-eval-perplexity.py BASE_URL MODEL [LM_EVAL]   (BASE_URL ends in /v1)
Runs a local-text loglikelihood_rolling task with --batch_size 4, prompts as text and as token ids,
then scores each text by `echo` (teacher-forced after BOS) and prints one JSON line per mode:
lm-eval's word_perplexity, the one from the echoed scores, and the largest per-text difference.
"""

import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

BASE, MODEL = sys.argv[1], sys.argv[2]
LM_EVAL = sys.argv[3] if len(sys.argv) > 3 else "lm_eval"
TEXTS = [
    "Once upon a time, there was a little girl named Lily. She loved to play outside in the sun.",
    "One day, a big dog saw a red ball in the park. He ran to get it and was very happy.",
    " Tom had a toy car. He liked to play with it every day.",
    "The cat sat on the mat and looked at the bird.",
    "Sue and her mom went to the store to buy some food.",
]


def echo_score(text):
    body = {"model": MODEL, "prompt": text, "echo": True, "logprobs": 0, "max_tokens": 0}
    req = urllib.request.Request(BASE + "/completions", json.dumps(body).encode(), {"content-type": "application/json"})
    return sum(json.loads(urllib.request.urlopen(req).read())["choices"][0]["logprobs"]["token_logprobs"])


with tempfile.TemporaryDirectory() as d:
    data = os.path.join(d, "ppl.jsonl")
    with open(data, "w") as f:
        f.write("\n".join(json.dumps({"text": t}) for t in TEXTS))
    with open(os.path.join(d, "waver_ppl.yaml"), "w") as f:
        f.write(
            f"task: waver_ppl\ndataset_path: json\ndataset_kwargs: {{data_files: {{test: {json.dumps(data)}}}}}\n"
            'test_split: test\noutput_type: loglikelihood_rolling\ndoc_to_text: ""\ndoc_to_target: "{{text}}"\n'
            "metric_list: [{metric: word_perplexity}, {metric: byte_perplexity}, {metric: bits_per_byte}]\n"
        )
    own = {t: echo_score(t) for t in TEXTS}
    words = sum(len(re.split(r"\s+", t)) for t in TEXTS)
    for tokenized in ("False", "True"):
        out = os.path.join(d, f"out-{tokenized}")
        args = f"base_url={BASE}/completions,model={MODEL},tokenized_requests={tokenized},tokenizer_backend=remote"
        env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
        cmd = [LM_EVAL, "--model", "local-completions", "--model_args", args, "--tasks", "waver_ppl",
               "--include_path", d, "--batch_size", "4", "--log_samples", "--output_path", out]
        subprocess.run(cmd, env=env, capture_output=True)
        results = json.load(open(glob.glob(f"{out}/*/results_*.json")[0]))["results"]["waver_ppl"]
        samples = [json.loads(line) for line in open(glob.glob(f"{out}/*/samples_waver_ppl_*.jsonl")[0])]
        diff = max(abs(float(s["filtered_resps"][0]) - own[s["doc"]["text"]]) for s in samples)
        print(json.dumps({
            "tokenized_requests": tokenized,
            "word_perplexity_lm_eval": results["word_perplexity,none"],
            "word_perplexity_echo": math.exp(-sum(own.values()) / words),
            "max_abs_loglikelihood_diff": diff,
        }))

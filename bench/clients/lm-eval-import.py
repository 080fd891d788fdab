"""Makes the `waver import lm-eval` fixture: real lm-evaluation-harness `--log_samples` runs.

Usage: python lm-eval-import.py OUT_DIR [LM_EVAL]   (run from the repository root, after the build)
Serves the two tiny models with `waver serve`, then runs lm-eval's `local-completions` model on
three prompt variants (templates) of one six-question multiple-choice dataset, each asked twice
(`repeats: 2`), with `--log_samples`: OUT_DIR/<model>/results_*.json and samples_<task>_*.jsonl,
one folder per model. The task YAMLs and the dataset are written into OUT_DIR/tasks (kept as the
fixture's provenance). src/test-support/protocols/paraphrase/import/lm-eval/ holds its output.
"""

import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import time

OUT = os.path.abspath(sys.argv[1])
LM_EVAL = sys.argv[2] if len(sys.argv) > 2 else "lm_eval"
# The tiny models beside the checkout (../shared/models), or where WAVER_MODELS_DIR says.
MODELS_DIR = os.path.abspath(os.environ.get("WAVER_MODELS_DIR", "../shared/models"))
MODELS = {name: os.path.join(MODELS_DIR, f"{name}.gguf") for name in ("stories260K", "llama-2-tiny-random")}
QUESTIONS = [
    ("Once upon a time, there was a little", ["girl", "table", "seven"], 0),
    ("The cat sat on the", ["sky", "mat", "run"], 1),
    ("Lily went to the park to play with her", ["ocean", "quickly", "friends"], 2),
    ("One day, a big dog saw a", ["ball", "because", "and"], 0),
    ("Tom had a toy", ["blue", "car", "ran"], 1),
    ("She was very", ["happy", "table", "under"], 0),
]
# Three templates of the same documents: the prompt variants waver compares.
VARIANTS = {
    "waver_mc_plain": "{{question}}",
    "waver_mc_story": "Story: {{question}}",
    "waver_mc_next": "Complete the sentence. {{question}}",
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_tasks(d):
    os.makedirs(d, exist_ok=True)
    data = os.path.join(d, "tiny_mc.jsonl")
    with open(data, "w") as f:
        f.write("\n".join(json.dumps({"question": q, "choices": c, "answer": a}) for q, c, a in QUESTIONS) + "\n")
    for task, template in VARIANTS.items():
        with open(os.path.join(d, f"{task}.yaml"), "w") as f:
            f.write(
                f"task: {task}\ntag: waver_mc_variants\ndataset_path: json\n"
                "dataset_kwargs: {data_files: {test: tiny_mc.jsonl}}\ntest_split: test\n"
                f'output_type: multiple_choice\nrepeats: 2\ndoc_to_text: "{template}"\n'
                'doc_to_choice: "{{choices}}"\ndoc_to_target: "{{answer}}"\n'
                "metric_list: [{metric: acc, aggregation: mean, higher_is_better: true}, {metric: acc_norm, aggregation: mean, higher_is_better: true}]\n"
            )


def serve(path, port):
    proc = subprocess.Popen(
        ["node", "dist/cli/main.js", "serve", "--model", f"gguf:{path}?ctx=256", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"waver serve did not start on {port}")


def main():
    tasks = os.path.join(OUT, "tasks")
    write_tasks(tasks)
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    for name, path in MODELS.items():
        port = free_port()
        proc = serve(path, port)
        try:
            out = os.path.join(OUT, "raw", name)
            # waver serve answers only its model's id, the file's name (issue 38 item 1).
            args = f"base_url=http://127.0.0.1:{port}/v1/completions,model={os.path.basename(path)},tokenized_requests=False,tokenizer_backend=remote"
            # cwd=tasks: the YAMLs name the dataset by a relative path, so the fixture holds no absolute one.
            subprocess.run([LM_EVAL, "--model", "local-completions", "--model_args", args, "--tasks",
                            "waver_mc_variants", "--include_path", tasks, "--batch_size", "4",
                            "--log_samples", "--output_path", out], env=env, cwd=tasks, check=False)
        finally:
            proc.terminate()
            proc.wait()
        # lm-eval writes OUT/raw/<name>/<model_name sanitised>/; keep one flat folder per model.
        target = os.path.join(OUT, name)
        os.makedirs(target, exist_ok=True)
        for f in glob.glob(os.path.join(out, "*", "*.json*")):
            shutil.copy(f, os.path.join(target, os.path.basename(f)))
    shutil.rmtree(os.path.join(OUT, "raw"))


main()

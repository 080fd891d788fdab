#!/bin/sh
# Remakes src/test-support/protocols/paraphrase/import/promptfoo/results.json (trimmed by trim.py): promptfoo 0.123 (Node 22)
# against `waver serve` over the two tiny models. Run from the repository root after the build:
#   PROMPTFOO="/tmp/node22/node_modules/.bin/node /tmp/pf-i38/node_modules/.bin/promptfoo" sh bench/clients/promptfoo-import/make.sh OUT.json
set -eu
OUT=$(realpath -m "$1")
PROMPTFOO=${PROMPTFOO:-promptfoo}
HERE=$(dirname "$0")
PORT_A=${PORT_A:-18231}
PORT_B=${PORT_B:-18232}
export PORT_A PORT_B PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1 PROMPTFOO_DISABLE_SHARING=1
export PROMPTFOO_CONFIG_DIR=$(mktemp -d)
MODELS=${WAVER_MODELS_DIR:-../shared/models}
node dist/cli/main.js serve --model "gguf:$MODELS/stories260K.gguf?ctx=256" --port "$PORT_A" >/dev/null 2>&1 & A=$!
node dist/cli/main.js serve --model "gguf:$MODELS/llama-2-tiny-random.gguf?ctx=256" --port "$PORT_B" >/dev/null 2>&1 & B=$!
trap 'kill $A $B' EXIT
for p in "$PORT_A" "$PORT_B"; do
  i=0; until curl -sf "http://127.0.0.1:$p/v1/models" >/dev/null; do i=$((i+1)); [ $i -gt 150 ] && exit 1; sleep 0.2; done
done
RAW=$(mktemp --suffix=.json)
$PROMPTFOO eval -c "$HERE/promptfooconfig.yaml" --repeat 3 --no-cache --no-table --no-write -o "$RAW" || true
test -s "$RAW"
python3 "$HERE/trim.py" "$RAW" "$OUT"

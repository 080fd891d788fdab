"""The openai Python SDK against `waver serve`: every route a client of it calls, each answer checked.

Usage: python openai-python.py BASE_URL MODEL   (BASE_URL ends in /v1)
Prints one JSON line {"calls", "checks", "failed": [...]} and exits 1 when a check failed.
src/server/openai-python.test.ts runs it where the `openai` package is importable.
"""

import base64
import json
import sys
import urllib.request
from typing import Literal

import openai
from pydantic import BaseModel

BASE, MODEL = sys.argv[1], sys.argv[2]
ROOT = BASE.removesuffix("/v1")
client = openai.OpenAI(base_url=BASE, api_key="none", max_retries=0)
calls = 0
checks = 0
failed: list[str] = []


def call(fn, *args, **kwargs):
    global calls
    calls += 1
    return fn(*args, **kwargs)


def check(name, ok, detail=""):
    global checks
    checks += 1
    if not ok:
        failed.append(f"{name}: {detail}"[:300])


def refused(name, status, code, fn, **kwargs):
    try:
        call(fn, **kwargs)
        check(name, False, "no error")
    except openai.APIStatusError as e:
        check(name, e.status_code == status and e.code == code, f"{e.status_code} {e.code}")


def post(path, body):
    global calls
    calls += 1
    req = urllib.request.Request(ROOT + path, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req) as res:
        return json.loads(res.read())


USER = [{"role": "user", "content": "Once upon a time"}]
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city",
        "parameters": {
            "type": "object",
            "properties": {"unit": {"enum": ["celsius", "fahrenheit"]}},
            "required": ["unit"],
            "additionalProperties": False,
        },
    },
}


class Verdict(BaseModel):
    answer: Literal["yes", "no"]
    sure: bool


def models():
    listed = call(client.models.list)
    check("models.list", [m.id for m in listed.data] == [MODEL], listed)
    check("models.retrieve", call(client.models.retrieve, MODEL).id == MODEL)
    refused("models.retrieve unknown", 404, "model_not_found", client.models.retrieve, model="gpt-nope")
    refused("chat unknown model", 404, "model_not_found", client.chat.completions.create, model="gpt-nope", messages=USER)
    refused("completions unknown model", 404, "model_not_found", client.completions.create, model="gpt-nope", prompt="x")
    refused("embeddings unknown model", 404, "model_not_found", client.embeddings.create, model="gpt-nope", input="x")
    refused("responses unknown model", 404, "model_not_found", client.responses.create, model="gpt-nope", input="x")


def chat():
    one = call(client.chat.completions.create, model=MODEL, messages=USER, max_tokens=16)
    check("chat", isinstance(one.choices[0].message.content, str) and one.usage.completion_tokens > 0, one)
    n = call(client.chat.completions.create, model=MODEL, messages=USER, max_tokens=8, n=3)
    check("chat n", [c.index for c in n.choices] == [0, 1, 2])
    lp = call(client.chat.completions.create, model=MODEL, messages=USER, max_tokens=8, logprobs=True, top_logprobs=2)
    check("chat logprobs", all(len(t.top_logprobs) == 2 for t in lp.choices[0].logprobs.content))
    stop = call(client.chat.completions.create, model=MODEL, messages=USER, max_tokens=64, stop=["."])
    check("chat stop", "." not in stop.choices[0].message.content)
    text = ""
    for chunk in call(client.chat.completions.create, model=MODEL, messages=USER, max_tokens=16, stream=True):
        if chunk.choices:
            text += chunk.choices[0].delta.content or ""
    check("chat stream", text == one.choices[0].message.content, (text, one.choices[0].message.content))
    # The SDK's helper raises on finish_reason "length": let the answer end by itself.
    whole = call(client.chat.completions.create, model=MODEL, messages=USER, max_tokens=200, stop=["."])
    with call(client.chat.completions.stream, model=MODEL, messages=USER, max_tokens=200, stop=["."], stream_options={"include_usage": True}) as s:
        final = s.get_final_completion()
    check("chat stream helper", final.choices[0].message.content == whole.choices[0].message.content and final.usage == whole.usage, final)
    dev = call(client.chat.completions.create, model=MODEL, messages=[{"role": "developer", "content": "Tell a story."}, *USER], max_completion_tokens=4)
    check("chat developer + max_completion_tokens", dev.usage.completion_tokens <= 4)
    seeded = [call(client.chat.completions.create, model=MODEL, messages=USER, max_tokens=12, temperature=1.2, seed=7).choices[0].message.content for _ in range(2)]
    check("chat seed repeats", seeded[0] == seeded[1], seeded)
    obj = call(client.chat.completions.create, model=MODEL, messages=USER, max_tokens=200, response_format={"type": "json_object"})
    check("chat json_object", obj.choices[0].message.content.lstrip().startswith("{"))
    parsed = call(client.chat.completions.parse, model=MODEL, messages=[{"role": "user", "content": "Is the cat happy?"}], response_format=Verdict, max_tokens=60)
    check("chat parse", isinstance(parsed.choices[0].message.parsed, Verdict), parsed)
    refused("chat bad response_format", 400, "invalid_value", client.chat.completions.create, model=MODEL, messages=USER, response_format={"type": "yaml"})
    refused("chat n streamed", 400, "unsupported_parameter", client.chat.completions.create, model=MODEL, messages=USER, n=2, stream=True)
    refused("chat too long", 400, "context_length_exceeded", client.chat.completions.create, model=MODEL, messages=[{"role": "user", "content": "Once upon a time " * 400}])


def tools():
    required = call(client.chat.completions.create, model=MODEL, messages=USER, tools=[WEATHER], tool_choice="required", max_tokens=60)
    tc = required.choices[0].message.tool_calls
    check("tools required", required.choices[0].finish_reason == "tool_calls" and tc[0].function.name == "get_weather", required)
    named = call(client.chat.completions.create, model=MODEL, messages=USER, tools=[WEATHER], tool_choice={"type": "function", "function": {"name": "get_weather"}}, max_tokens=60)
    check("tools named", named.choices[0].finish_reason == "tool_calls")
    none = call(client.chat.completions.create, model=MODEL, messages=USER, tools=[WEATHER], tool_choice="none", max_tokens=8)
    check("tools none", none.choices[0].message.tool_calls is None and isinstance(none.choices[0].message.content, str))
    kinds = set()
    for seed in range(12):
        auto = call(client.chat.completions.create, model=MODEL, messages=USER, tools=[WEATHER], tool_choice="auto", temperature=1, seed=seed, max_tokens=80)
        kinds.add(auto.choices[0].finish_reason)
    check("tools auto replies or calls", {"stop", "tool_calls"} <= kinds, kinds)
    back = call(
        client.chat.completions.create,
        model=MODEL,
        messages=[*USER, required.choices[0].message, {"role": "tool", "tool_call_id": tc[0].id, "content": '{"temperature": 21}'}],
        tools=[WEATHER],
        tool_choice="none",
        max_tokens=8,
    )
    check("tools result back", isinstance(back.choices[0].message.content, str))
    with call(client.chat.completions.stream, model=MODEL, messages=USER, tools=[WEATHER], tool_choice="required", max_tokens=60) as s:
        final = s.get_final_completion()
    check("tools streamed", final.choices[0].message.tool_calls[0].function.arguments == tc[0].function.arguments)
    refused("tools unknown name", 400, "invalid_value", client.chat.completions.create, model=MODEL, messages=USER, tools=[WEATHER], tool_choice={"type": "function", "function": {"name": "nope"}})


def completions():
    one = call(client.completions.create, model=MODEL, prompt="Once upon a time", max_tokens=8, logprobs=1)
    check("completions", isinstance(one.choices[0].text, str) and one.choices[0].logprobs.text_offset[0] == len("Once upon a time"))
    many = call(client.completions.create, model=MODEL, prompt=["Once upon a time", "The cat"], max_tokens=8)
    check("completions prompts", [c.index for c in many.choices] == [0, 1] and many.choices[0].text == one.choices[0].text)
    tokens = [post("/tokenize", {"prompt": p})["tokens"] for p in ["Once upon a time", "The cat"]]
    by_tokens = call(client.completions.create, model=MODEL, prompt=tokens, max_tokens=8)
    check("completions token prompts", [c.text for c in by_tokens.choices] == [c.text for c in many.choices])
    echo = call(client.completions.create, model=MODEL, prompt=" Once upon a time", echo=True, logprobs=0, max_tokens=0)
    lp = echo.choices[0].logprobs
    check("completions echo spelling", "".join(lp.tokens) == " Once upon a time" and lp.text_offset[:3] == [0, 1, 5], lp)
    # lm-evaluation-harness's log-likelihood call, four prompts at once (--batch_size 4).
    lm = call(client.completions.create, model=MODEL, prompt=["The cat sat", "on the mat", "Lily had", "a ball"], echo=True, logprobs=1, max_tokens=1, temperature=0)
    check("completions lm-eval batch", [c.index for c in lm.choices] == [0, 1, 2, 3] and all(c.logprobs.token_logprobs[0] is not None for c in lm.choices))
    n = call(client.completions.create, model=MODEL, prompt="The cat", n=2, max_tokens=4)
    check("completions n", len(n.choices) == 2)
    text = "".join(c.choices[0].text for c in call(client.completions.create, model=MODEL, prompt="Once upon a time", max_tokens=8, stream=True) if c.choices)
    check("completions stream", text == one.choices[0].text, (text, one.choices[0].text))
    refused("completions suffix", 400, "invalid_value", client.completions.create, model=MODEL, prompt="x", suffix="y")
    refused("completions echo stream", 400, "unsupported_parameter", client.completions.create, model=MODEL, prompt="x", echo=True, stream=True)
    try:
        call(client.completions.create, model=MODEL, prompt="Once upon a time " * 400, echo=True, logprobs=0, max_tokens=0)
        check("completions too long", False, "no error")
    except openai.BadRequestError as e:
        err = e.body
        check("completions too long", err.get("param") == "prompt" and "--context-size" in err.get("message", ""), err)


def embeddings():
    one = call(client.embeddings.create, model=MODEL, input="Once upon a time", encoding_format="float")
    check("embeddings float", len(one.data[0].embedding) > 0)
    b64 = call(client.embeddings.create, model=MODEL, input="Once upon a time")
    check("embeddings base64 (SDK default)", abs(b64.data[0].embedding[0] - one.data[0].embedding[0]) < 1e-6)
    many = call(client.embeddings.create, model=MODEL, input=["a cat", "a dog"])
    check("embeddings list", [d.index for d in many.data] == [0, 1])
    check("embeddings list as each alone", abs(many.data[0].embedding[0] - call(client.embeddings.create, model=MODEL, input="a cat", encoding_format="float").data[0].embedding[0]) < 1e-6)


def responses():
    r = call(client.responses.create, model=MODEL, instructions="Tell a story.", input="Once upon a time", max_output_tokens=16)
    check("responses", r.object == "response" and isinstance(r.output_text, str))
    streamed = "".join(e.delta for e in call(client.responses.create, model=MODEL, instructions="Tell a story.", input="Once upon a time", max_output_tokens=16, stream=True) if e.type == "response.output_text.delta")
    check("responses stream", streamed == r.output_text, (streamed, r.output_text))
    parsed = call(client.responses.parse, model=MODEL, input="Is the cat happy?", text_format=Verdict, max_output_tokens=60)
    check("responses parse", isinstance(parsed.output_parsed, Verdict), parsed)
    tool = {"type": "function", "name": "get_weather", "parameters": WEATHER["function"]["parameters"], "strict": True}
    called = call(client.responses.create, model=MODEL, input="What is the weather?", tools=[tool], tool_choice="required", max_output_tokens=60)
    item = called.output[0]
    check("responses tools", item.type == "function_call" and item.name == "get_weather", called)
    back = call(
        client.responses.create,
        model=MODEL,
        input=[
            {"role": "user", "content": "What is the weather?"},
            {"type": "function_call", "call_id": item.call_id, "name": item.name, "arguments": item.arguments},
            {"type": "function_call_output", "call_id": item.call_id, "output": '{"temperature": 21}'},
        ],
        tools=[tool],
        tool_choice="none",
        max_output_tokens=8,
    )
    check("responses function_call_output", back.output[0].type == "message")


def tokenizer():
    info = json.loads(urllib.request.urlopen(ROOT + "/tokenizer_info").read())
    check("tokenizer_info", info.get("bos_token") is not None and info.get("eos_token") is not None, info)
    bos = post("/tokenize", {"prompt": info["bos_token"]})["tokens"]
    check("bos id", bos == [info["bos_token_id"]], bos)
    tokens = post("/tokenize", {"prompt": "Once upon"})["tokens"]
    text = post("/detokenize", {"tokens": bos + tokens})["prompt"]
    check("detokenize round trip", post("/tokenize", {"prompt": text})["tokens"] == bos + tokens, text)


for part in (models, chat, tools, completions, embeddings, responses, tokenizer):
    try:
        part()
    except Exception as e:  # a part that broke is a failure, named; the others still run
        failed.append(f"{part.__name__}: {type(e).__name__}: {e}"[:300])
print(json.dumps({"openai": openai.__version__, "calls": calls, "checks": checks, "failed": failed}))
sys.exit(1 if failed else 0)

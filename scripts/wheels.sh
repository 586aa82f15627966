# shellcheck shell=bash
# Pinned-wheel helpers shared by scripts/setup.sh and scripts/llm-local.sh (sourced, not run).
# The caller sets REPO (the checkout), PY (a python3 with pip) and LOG_TAG (the log prefix).
# Defines: CACHE, WHEELS (.cache/wheels), STAMPS (.cache/stamps), PINS (scripts/pins.txt),
#   PIN_SPEC/PIN_FILE/PIN_SHA[<name>] for every line of PINS, and log, die, wheels_lock,
#   stamp_ok, stamp_write, fetch_wheel, extract_member.
# Reading a pin fetches nothing: a wheel is downloaded only when a caller asks for it by name.

CACHE="$REPO/.cache"
WHEELS="$CACHE/wheels"
STAMPS="$CACHE/stamps"
PINS="$REPO/scripts/pins.txt"

log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "$LOG_TAG" "$*" >&2; exit 1; }

command -v "$PY" >/dev/null 2>&1 || die "$PY not found (set PYTHON=/path/to/python3)"
command -v sha256sum >/dev/null 2>&1 || die "sha256sum not found (coreutils)"

declare -A PIN_SPEC=() PIN_FILE=() PIN_SHA=()
while read -r spec file sha _rest; do
  [[ -z "${spec:-}" || "$spec" == \#* ]] && continue
  [[ -n "${file:-}" && "${sha:-}" =~ ^[0-9a-f]{64}$ ]] || die "bad line in $PINS: $spec $file $sha"
  key="${spec%%==*}"
  PIN_SPEC[$key]="$spec"
  PIN_FILE[$key]="$file"
  PIN_SHA[$key]="$sha"
done <"$PINS"

mkdir -p "$WHEELS" "$STAMPS"

# One fetch/unpack at a time per checkout (e.g. two `make` invocations racing). The lock is
# held on fd 8 until the process exits or closes it (`exec 8>&-`).
wheels_lock() {
  if command -v flock >/dev/null 2>&1; then
    exec 8>"$CACHE/.setup.lock"
    flock 8
  fi
}

# stamp_ok NAME VALUE: true when the stamp NAME holds exactly VALUE.
stamp_ok() { [[ -f "$STAMPS/$1" && "$(cat "$STAMPS/$1")" == "$2" ]]; }
stamp_write() { printf '%s\n' "$2" >"$STAMPS/$1.tmp" && mv -f "$STAMPS/$1.tmp" "$STAMPS/$1"; }

# pip flags that select exactly the pinned file: derived from its tags
# ({name}-{ver}[-{build}]-{python}-{abi}-{platform}.whl).
pip_flags_for() {
  local base="${1%.whl}" parts n py abi plat p
  IFS=- read -r -a parts <<<"$base"
  n=${#parts[@]}
  py="${parts[n - 3]}" abi="${parts[n - 2]}" plat="${parts[n - 1]}"
  local -a flags=(--only-binary=:all:)
  if [[ "$plat" != any ]]; then
    for p in ${plat//./ }; do flags+=(--platform "$p"); done
    for p in ${abi//./ }; do flags+=(--abi "$p"); done
    if [[ "$py" =~ ^cp3([0-9]+)$ ]]; then
      flags+=(--implementation cp --python-version "3.${BASH_REMATCH[1]}")
    fi
  fi
  printf '%s\n' "${flags[@]}"
}

# fetch_wheel KEY: makes sure .cache/wheels/<pinned file> exists and has the pinned sha256.
fetch_wheel() {
  [[ -n "${PIN_SPEC[$1]:-}" ]] || die "no pin for $1 in $PINS"
  local key="$1" spec="${PIN_SPEC[$1]}" file="${PIN_FILE[$1]}" sha="${PIN_SHA[$1]}"
  local path="$WHEELS/$file" stamp="wheel-$file"
  if [[ -f "$path" ]] && stamp_ok "$stamp" "$sha $(stat -c '%s %Y' "$path")"; then
    return 0
  fi
  if [[ ! -f "$path" ]]; then
    local tmp="$WHEELS/.download.$$"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    local -a flags
    mapfile -t flags < <(pip_flags_for "$file")
    log "downloading $spec"
    if ! "$PY" -m pip download --no-deps --progress-bar off --disable-pip-version-check \
      "${flags[@]}" -d "$tmp" "$spec" >&2; then
      rm -rf "$tmp"
      die "pip download $spec failed"
    fi
    if [[ ! -f "$tmp/$file" ]]; then
      local got
      got="$(ls "$tmp")"
      rm -rf "$tmp"
      die "pip fetched '$got' for $spec, but the pin is '$file' (update scripts/pins.txt deliberately if intended)"
    fi
    mv -f "$tmp/$file" "$path"
    rm -rf "$tmp"
  fi
  local actual
  actual="$(sha256sum "$path" | cut -d' ' -f1)"
  if [[ "$actual" != "$sha" ]]; then
    mv -f "$path" "$path.rejected"
    die "sha256 mismatch for $file: expected $sha, got $actual (moved to $path.rejected)"
  fi
  stamp_write "$stamp" "$sha $(stat -c '%s %Y' "$path")"
  log "verified $file"
}

# extract_member WHEEL MEMBER OUT [MODE]: copy one file out of a wheel, atomically, with MODE
# (octal, default 755: the shared libraries setup.sh extracts).
extract_member() {
  mkdir -p "$(dirname "$3")"
  "$PY" - "$1" "$2" "$3" "${4:-755}" <<'PYEOF'
import os, shutil, sys, zipfile
whl, member, out, mode = sys.argv[1:5]
with zipfile.ZipFile(whl) as z, z.open(member) as src:
    with open(out + ".tmp", "wb") as dst:
        shutil.copyfileobj(src, dst)
os.chmod(out + ".tmp", int(mode, 8))
os.replace(out + ".tmp", out)
PYEOF
}

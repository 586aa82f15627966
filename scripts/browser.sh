#!/usr/bin/env bash
# Installs what the browser tests drive: Debian's `chromium` and `chromium-driver` (from the
# Debian archive only; no browser download from anywhere else), then prints where they are.
# Also a Devanagari system font (`fonts-lohit-deva`, ~200 KB; one of the fonts app.css names),
# so that the Hindi screenshots show Hindi rather than empty boxes; the test passes without it.
#   bash scripts/browser.sh          install if missing, print "chromium=<path> chromedriver=<path>"
#   bash scripts/browser.sh check    exit 1 (with the reason) when either is missing
# apt needs root: as root it runs directly, otherwise through sudo when there is one.
# Env: NYAYA_CHROMIUM, NYAYA_CHROMEDRIVER: use these binaries instead (nothing is installed).
set -euo pipefail

log() { echo "[browser] $*" >&2; }

find_bins() {
  CHROMIUM="${NYAYA_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
  DRIVER="${NYAYA_CHROMEDRIVER:-$(command -v chromedriver || true)}"
}

find_bins
if [[ "${1:-}" == check ]]; then
  [[ -x "$CHROMIUM" && -x "$DRIVER" ]] || { log "chromium or chromedriver missing: run bash scripts/browser.sh"; exit 1; }
  echo "chromium=$CHROMIUM chromedriver=$DRIVER"
  exit 0
fi

if [[ -z "$CHROMIUM" || -z "$DRIVER" ]]; then
  if [[ $(id -u) -eq 0 ]]; then SUDO=(); elif command -v sudo >/dev/null; then SUDO=(sudo); else
    log "chromium and chromium-driver are not installed and this user cannot run apt-get"
    log "install them (apt-get install chromium chromium-driver) or set NYAYA_CHROMIUM / NYAYA_CHROMEDRIVER"
    exit 1
  fi
  log "installing chromium and chromium-driver from the Debian archive"
  export DEBIAN_FRONTEND=noninteractive
  # A stale package list names versions the mirror no longer has; refresh once, quietly.
  "${SUDO[@]}" apt-get update -qq >&2
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >&2
  find_bins
fi
[[ -x "$CHROMIUM" && -x "$DRIVER" ]] || { log "chromium or chromedriver still missing after install"; exit 1; }
if command -v fc-list >/dev/null && [[ -z "$(fc-list :lang=hi family)" ]]; then
  if [[ $(id -u) -eq 0 ]]; then SUDO=(); elif command -v sudo >/dev/null; then SUDO=(sudo); else SUDO=(false); fi
  log "installing a Devanagari font (fonts-lohit-deva) for the Hindi screenshots"
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends fonts-lohit-deva >&2 \
    || log "no Devanagari font installed: the Hindi screenshots will show boxes"
fi
log "$("$CHROMIUM" --version 2>/dev/null | head -n1); $("$DRIVER" --version 2>/dev/null | head -n1)"
echo "chromium=$CHROMIUM chromedriver=$DRIVER"

#!/usr/bin/env bash
# Installs what the tests need (npm run setup:test): Debian packages (Chromium, sqlite3, ripgrep, redis-server
# for the queue-mode tests,
# build tools for code-server's native modules) and code-server 4.100.3 in .tools/code-server.
# Idempotent: each step is skipped when its result is already there. Needs root (or sudo) for apt-get.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CS_VERSION="${CS_VERSION:-4.100.3}"
TOOLS="$ROOT/.tools/code-server"
export DEBIAN_FRONTEND=noninteractive

PACKAGES=(chromium sqlite3 time ripgrep redis-server build-essential python3 pkg-config libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing Debian packages: ${missing[*]}"
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "setup: Debian packages present"
fi

if [ "$(cat "$TOOLS/.code-server-installed" 2>/dev/null)" = "$CS_VERSION" ] && [ -f "$TOOLS/node_modules/code-server/out/node/entry.js" ]; then
  echo "setup: code-server $CS_VERSION present in $TOOLS"
else
  echo "setup: installing code-server $CS_VERSION into $TOOLS (a few minutes)"
  CS_VERSION="$CS_VERSION" bash "$ROOT/scripts/ci/installCodeServer.sh" "$TOOLS"
fi

# playwright-core drives Chromium; it is a devDependency of the project, installed by `npm ci`.
if [ ! -f "$ROOT/node_modules/playwright-core/package.json" ]; then
  echo "setup: playwright-core is missing from node_modules: run npm ci first" >&2
  exit 1
fi
echo "setup: done"

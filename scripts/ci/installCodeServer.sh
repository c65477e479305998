#!/usr/bin/env bash
# Installs code-server (VS Code 1.100.3 for the web) from the npm registry only: CI machines reach npm and
# Debian's packages but not GitHub or Microsoft's update servers, so code-server's own postinstall
# (which downloads ripgrep from GitHub) is replaced by the same steps done by hand.
# Needs first (scripts/ci/setup.sh installs them): build-essential python3 pkg-config libkrb5-dev
# libxkbfile-dev libsecret-1-dev libx11-dev ripgrep.
# usage: installCodeServer.sh DEST_DIR   (code-server lands in DEST_DIR/node_modules/code-server)
set -euo pipefail
export npm_config_yes=true   # node-pty's install runs `npx node-gyp`; a global npmrc may say yes=false
# node-gyp must not download Node headers (no internet): use the installed ones when present.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi
CS_VERSION="${CS_VERSION:-4.100.3}"   # last code-server whose engines.node is 20 (bundles VS Code 1.100.3)
DEST="${1:?usage: installCodeServer.sh DEST_DIR}"
mkdir -p "$DEST"; cd "$DEST"
[ -f package.json ] || echo '{"name":"toffee-test-tools","private":true}' > package.json
# 1. code-server itself, without its install scripts (its postinstall would reach GitHub through @vscode/ripgrep)
npm install --no-audit --no-fund --no-save --ignore-scripts "code-server@$CS_VERSION"
npm rebuild argon2            # code-server's own native dependency
CS="$DEST/node_modules/code-server"
# 2. code-server's postinstall.sh, step by step
cd "$CS/lib/vscode"
npm install --no-audit --no-fund --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg   # Debian's ripgrep instead of the GitHub download
npm rebuild --foreground-scripts                             # node-pty, spdlog, watcher, kerberos, ...; ripgrep's postinstall sees bin/ and stops
rm -rf node_modules.asar; ln -s node_modules node_modules.asar
( cd bin/remote-cli && rm -f code-server && ln -s code-linux.sh code-server )
( cd bin/helpers && rm -f browser.sh && ln -s browser-linux.sh browser.sh )
cd extensions
npm install --no-audit --no-fund --omit=dev
# A marker written last, so an interrupted install is redone by setup.sh instead of being trusted.
echo "$CS_VERSION" > "$DEST/.code-server-installed"
echo "code-server installed at $CS"
XDG_CONFIG_HOME="$DEST/.xdg/config" XDG_DATA_HOME="$DEST/.xdg/data" node "$CS/out/node/entry.js" --version

#!/usr/bin/env bash
# Install LibreOffice Calc 25.2 (Debian bookworm-backports) headless, with Python UNO and the
# SDK's unoidl-write, when it is missing. Needs root and Debian's package sources; prints why not.
set -euo pipefail
have() {
  local v
  v=$(dpkg-query -W -f='${Version}' libreoffice-calc-nogui 2>/dev/null || true)
  [[ "$v" == 4:25.* ]] && dpkg-query -W python3-uno libreoffice-dev \
    libreoffice-script-provider-python >/dev/null 2>&1
}
if have; then exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "install-libreoffice: needs root and apt-get to install LibreOffice 25.2" >&2
  exit 1
fi
src=/etc/apt/sources.list.d/debian.sources
if [ -f "$src" ] && ! grep -q bookworm-backports "$src"; then
  # the machine's own Debian entry (same mirror), with the backports suite added
  sed -i '0,/^Suites: bookworm bookworm-updates$/s//Suites: bookworm bookworm-updates bookworm-backports/' "$src"
fi
if ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "deb http://deb.debian.org/debian bookworm-backports main" \
    > /etc/apt/sources.list.d/bookworm-backports.list
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq -t bookworm-backports --no-install-recommends \
  libreoffice-calc-nogui python3-uno libreoffice-script-provider-python libreoffice-dev \
  >/dev/null
have

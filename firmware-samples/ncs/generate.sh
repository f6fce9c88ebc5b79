#!/usr/bin/env bash
# Regenerates firmware-samples/ncs/: nRF Connect SDK style dfu_application.zip packages whose images are
# signed by imgtool 2.5.0 with the TEST-ONLY keys in ../keys, whose manifest.json is written the way
# sdk-nrf's scripts/bootloader/generate_zip.py writes it (make_zips.py says how), broken packages
# derived from them, and firmware-samples/ncs-expected.tsv (the verdict dfu verify must give on each).
#
# Needs python3 (with venv) and PyPI access, only here: the outputs are committed, so building and
# testing dfu never needs Python.
#
#   firmware-samples/ncs/generate.sh
#
# The manifest `time`, every `modtime` and the zip timestamps are fixed, and the bodies come from fixed
# seeds; the ECDSA signatures are randomised by the signer, so the images (and zips) change on every
# run while every verdict in ncs-expected.tsv stays the same. IMGTOOL_VENV reuses a venv
# (default .build/imgtool-venv).
set -euo pipefail

IMGTOOL_VERSION=2.5.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
for arg in "$@"; do
    case "$arg" in
        -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "generate.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

venv="${IMGTOOL_VENV:-$repo/.build/imgtool-venv}"
if [[ ! -x "$venv/bin/imgtool" ]] || [[ "$("$venv/bin/imgtool" version 2> /dev/null | tail -n 1)" != "$IMGTOOL_VERSION" ]]; then
    echo "== venv with imgtool==$IMGTOOL_VERSION in $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "imgtool==$IMGTOOL_VERSION"
fi
echo "   imgtool $("$venv/bin/imgtool" version | tail -n 1)"

"$venv/bin/python" "$here/make_zips.py" "$here" "$venv/bin/imgtool" "$repo/firmware-samples/keys" \
    "$repo/firmware-samples/body/blinky-48k.bin" "$repo/firmware-samples/ncs-expected.tsv"
echo "== done: $(ls "$here"/*.zip "$here"/broken/*.zip | wc -l) zips, $(wc -l < "$repo/firmware-samples/ncs-expected.tsv") rows in ncs-expected.tsv"

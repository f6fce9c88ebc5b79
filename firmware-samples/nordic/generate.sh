#!/usr/bin/env bash
# Regenerates firmware-samples/nordic/: a TEST-ONLY signing key (only when missing, or with --new-keys),
# Nordic Secure DFU packages made by pc-nrfutil 6.1.7's own library, broken packages derived from them,
# and firmware-samples/nordic-expected.tsv (the verdict dfu verify must give on each).
#
# Needs python3 (with venv) and PyPI access, only here: the outputs are committed. The nrfutil command
# cannot start on Python >= 3.11 (it imports pc_ble_driver_py at load), so nrfutil is installed without
# its dependencies and nordicsemi.dfu.package.Package is called directly, as `nrfutil pkg generate` does.
#
#   firmware-samples/nordic/generate.sh              # keys kept, packages remade
#   firmware-samples/nordic/generate.sh --new-keys   # also replace the keys
#
# Signatures (random nonce) and zip timestamps change on every run; firmware, init commands and every
# verdict in nordic-expected.tsv do not. NRFUTIL_VENV reuses a venv (default .build/nrfutil-venv).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
new_keys=0
for arg in "$@"; do
    case "$arg" in
        --new-keys) new_keys=1 ;;
        -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "generate.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

venv="${NRFUTIL_VENV:-$repo/.build/nrfutil-venv}"
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import nordicsemi.dfu.package' 2> /dev/null; then
    echo "== venv with nrfutil==6.1.7 (library only) in $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --ignore-requires-python nrfutil==6.1.7
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'protobuf<4' ecdsa intelhex crcmod click pyyaml
fi

NEW_KEYS=$new_keys "$venv/bin/python" "$here/make_packages.py" "$here" "$repo/firmware-samples/body/blinky-48k.bin"
echo "== done: $(ls "$here"/*.zip "$here"/broken/*.zip | wc -l) packages, $(wc -l < "$repo/firmware-samples/nordic-expected.tsv") rows in nordic-expected.tsv"

# Shared set-up of scripts/smpclient-crosscheck.sh and scripts/smpclient-serial-crosscheck.sh,
# sourced by both once they have set `me` (their name, for messages) and `helper_py`: the pinned
# client versions, the sample image and key, the dfu binary from the first argument, imgtool's
# digest of the image, a temporary directory with a cleanup that stops the sims they started (by
# the pids in `sim_pids`), smpclient and smpmgr in a throw-away venv (SKIP and exit 0 when PyPI
# cannot be reached), and the pass/fail counters.

SMPCLIENT_VERSION=7.3.0
SMPMGR_VERSION=0.19.1
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="$repo/firmware-samples"
image="$samples/images/blinky-ecdsa-p256-1.1.0.signed.bin"
key="$samples/keys/TEST-ONLY-ecdsa-p256.pub.pem"

[[ $# -le 1 ]] || { echo "$me: too many arguments (try --help)" >&2; exit 2; }
# shellcheck source=scripts/dfu-binary.sh
source "$repo/scripts/dfu-binary.sh"
resolve_dfu "$me" "${1:-}"
for f in "$image" "$key" "$helper_py" "$samples/expected.tsv"; do
    [[ -f "$f" ]] || { echo "$me: missing $f" >&2; exit 2; }
done
image_size="$(wc -c < "$image" | tr -d ' ')"
# imgtool's digest of the image: the hash the device must report for the slot holding it.
image_hash="$(awk -F '\t' '$1 == "images/blinky-ecdsa-p256-1.1.0.signed.bin" && $3 == "OK" { print $5; exit }' \
              "$samples/expected.tsv")"
[[ -n "$image_hash" ]] || { echo "$me: no imgtool digest for the image in expected.tsv" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/$me.XXXXXX")"
sim_pids=()
# Stops every sim this script started that still runs (by its pid, nothing else), then the temp dir.
cleanup() {
    local pid
    for pid in "${sim_pids[@]}"; do
        if kill -0 "$pid" 2> /dev/null; then
            kill -TERM "$pid" 2> /dev/null || true
            wait "$pid" 2> /dev/null || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT

# --- smpclient and smpmgr in a throw-away venv -------------------------------------------------------
# shellcheck source=scripts/pypi-venv.sh
source "$repo/scripts/pypi-venv.sh"
make_venv "$me" "$work/venv"
if ! "$work/venv/bin/pip" install --disable-pip-version-check --quiet --timeout 20 --retries 1 \
        "smpclient==$SMPCLIENT_VERSION" "smpmgr==$SMPMGR_VERSION" > "$work/pip.log" 2>&1; then
    err="$(pip_failure "$work/pip.log")"
    echo "SKIP: $me: PyPI unreachable (${err:-pip install smpclient==$SMPCLIENT_VERSION smpmgr==$SMPMGR_VERSION failed})"
    exit 0
fi
PY="$work/venv/bin/python"
SMPMGR="$work/venv/bin/smpmgr"

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS  %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$*"; }

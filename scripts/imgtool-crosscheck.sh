#!/usr/bin/env bash
# imgtool-crosscheck: does `dfu verify` agree with `imgtool verify` (imgtool 2.5.0, MCUboot's own
# signing tool) on every committed sample and on images signed with keys nobody has seen before?
#
#   scripts/imgtool-crosscheck.sh [DFU_BINARY]     # default .build/debug/dfu
#   scripts/imgtool-crosscheck.sh --imgtool-only   # only the imgtool half (no dfu needed)
#
# (a) every row of firmware-samples/expected.tsv: imgtool is run again (the row must still hold),
#     then `dfu verify FILE [--key KEY] --json`; imgtool OK <=> dfu exit 0 (same version and
#     SHA-256), anything else <=> dfu exit 3. Rows of firmware-samples/imgtool-divergent.tsv (imgtool
#     accepts what MCUboot refuses) are held to MCUboot's verdict instead.
# (b) fresh keys of all four types (made in a temp dir, never kept), random bodies, random versions
#     with a build number, random header sizes, sometimes a protected TLV; each image verified with
#     its key, without a key, with a wrong fresh key of the same and of another type, and tampered.
#
# Needs python3 with venv and PyPI (test-only: the product never needs Python). If PyPI cannot be
# reached it prints "SKIP: imgtool-crosscheck: PyPI unreachable (...)" and exits 0. Otherwise it
# prints one line per case and then "imgtool-crosscheck: N passed, M failed"; exit 1 if M > 0,
# exit 2 if it could not run at all (no dfu binary, bad arguments).
# CROSSCHECK_SEED=<int> repeats the sizes, versions and tamper offsets of an earlier run (keys are
# always new).
set -euo pipefail

IMGTOOL_VERSION=2.5.0
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="$repo/firmware-samples"

imgtool_only=0
dfu=""
case "${1:-}" in
    -h|--help) sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --imgtool-only) imgtool_only=1 ;;
    *)
        # shellcheck source=scripts/dfu-binary.sh
        source "$repo/scripts/dfu-binary.sh"
        resolve_dfu imgtool-crosscheck "${1:-}"
        ;;
esac
[[ $# -le 1 ]] || { echo "imgtool-crosscheck: too many arguments (try --help)" >&2; exit 2; }
for f in "$samples/expected.tsv" "$samples/imgtool-divergent.tsv"; do
    [[ -f "$f" ]] || { echo "imgtool-crosscheck: missing $f (run firmware-samples/generate.sh)" >&2; exit 2; }
done

work="$(mktemp -d "${TMPDIR:-/tmp}/imgtool-crosscheck.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# --- imgtool in a throw-away venv ------------------------------------------------------------------
# shellcheck source=scripts/pypi-venv.sh
source "$repo/scripts/pypi-venv.sh"
make_venv imgtool-crosscheck "$work/venv"
if ! "$work/venv/bin/pip" install --disable-pip-version-check --quiet --timeout 20 --retries 1 \
        "imgtool==$IMGTOOL_VERSION" > "$work/pip.log" 2>&1; then
    err="$(pip_failure "$work/pip.log")"
    echo "SKIP: imgtool-crosscheck: PyPI unreachable (${err:-pip install imgtool==$IMGTOOL_VERSION failed})"
    exit 0
fi
IMGTOOL="$work/venv/bin/imgtool"
PY="$work/venv/bin/python"

# --- Python helpers: random images, tampering, and judging dfu's JSON ------------------------------
cat > "$work/helper.py" <<'PYEOF'
import json
import os
import random
import struct
import sys


def cmd_body(out, rnd):
    """Random body of random size; prints nothing."""
    size = rnd.randint(1024, 128 * 1024)
    with open(out, "wb") as f:
        f.write(rnd.randbytes(size))


def cmd_version(rnd):
    # major.minor.revision+build with a non-zero build number
    print(f"{rnd.randint(0, 255)}.{rnd.randint(0, 255)}.{rnd.randint(0, 65535)}+{rnd.randint(1, 2**32 - 1)}")


def cmd_tamper(src, out, rnd):
    """Flip one bit of one body byte."""
    with open(src, "rb") as f:
        b = bytearray(f.read())
    _magic, _load, hdr, _prot, img = struct.unpack_from("<IIHHI", b, 0)
    off = hdr + rnd.randrange(img)
    b[off] ^= 1 << rnd.randrange(8)
    with open(out, "wb") as f:
        f.write(b)


def cmd_judge(want, version, sha, rc, stdout_path, stderr_path):
    """want: OK or REJECT. version/sha: what imgtool printed, or '-'. Prints one reason per line for
    each disagreement, and the version dfu reported on the first line as 'version=...'."""
    rc = int(rc)
    problems = []
    want_rc = 0 if want == "OK" else 3
    if rc != want_rc:
        problems.append(f"dfu exited {rc}, expected {want_rc}")
    with open(stdout_path, encoding="utf-8", errors="replace") as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip()]
    results = []
    for ln in lines:
        try:
            obj = json.loads(ln)
        except ValueError:
            problems.append(f"stdout line is not JSON: {ln[:80]!r}")
            continue
        if isinstance(obj, dict) and obj.get("event") == "result":
            results.append(obj)
    if len(results) != 1:
        problems.append(f"stdout has {len(results)} result objects, expected exactly 1")
    obj = results[0] if results else {}
    if results:
        if obj.get("command") != "verify":
            problems.append(f"command is {obj.get('command')!r}, expected 'verify'")
        if obj.get("exit_code") != rc:
            problems.append(f"JSON exit_code {obj.get('exit_code')!r} but the process exited {rc}")
        if obj.get("ok") is not (rc == 0):
            problems.append(f"JSON ok {obj.get('ok')!r} but the process exited {rc}")
        if want == "OK":
            if version != "-" and obj.get("version") != version:
                problems.append(f"version {obj.get('version')!r}, imgtool says {version!r}")
            got_sha = obj.get("sha256")
            if sha != "-" and (not isinstance(got_sha, str) or got_sha.lower() != sha.lower()):
                problems.append(f"sha256 {got_sha!r}, imgtool says {sha!r}")
            for check in ("hash", "signature", "key_hash"):
                if obj.get(check) == "failed":
                    problems.append(f"{check} is 'failed' on an image that should pass")
        else:
            failed = [c for c in ("hash", "signature", "key_hash") if obj.get(c) == "failed"]
            if rc == 3 and not failed and not obj.get("error"):
                problems.append("exit 3, but no check is 'failed' and 'error' is empty")
    if problems:
        try:
            with open(stderr_path, encoding="utf-8", errors="replace") as f:
                err = next((ln.strip() for ln in f if ln.strip()), "")
        except OSError:
            err = ""
        if err:
            problems.append(f"dfu stderr: {err[:160]}")
    print(f"version={obj.get('version', '-') if results else '-'}")
    for p in problems:
        print(p)


def main():
    seed = int(os.environ.get("CROSSCHECK_SEED", "0"))
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "seed":
        print(random.SystemRandom().randrange(2**31))
        return
    if cmd == "judge":
        cmd_judge(*args)
        return
    # every other command takes a case-specific salt so that each draw is reproducible from the seed
    salt, args = args[0], args[1:]
    rnd = random.Random(f"{seed}:{salt}")
    if cmd == "body":
        cmd_body(args[0], rnd)
    elif cmd == "version":
        cmd_version(rnd)
    elif cmd == "pick":  # pick SALT CHOICE...
        print(rnd.choice(args))
    elif cmd == "tamper":
        cmd_tamper(args[0], args[1], rnd)
    else:
        raise SystemExit(f"unknown command {cmd}")


main()
PYEOF
helper() { "$PY" "$work/helper.py" "$@"; }

# --- imgtool verify, reduced to one word (same mapping as firmware-samples/generate.sh) --------------
imgtool_verify() { # FILE KEY|-  -> VERIFY_RESULT VERIFY_VERSION VERIFY_SHA VERIFY_DETAIL
    local file="$1" key="$2" out rc
    local -a args=(verify)
    if [[ "$key" != "-" ]]; then args+=(-k "$key"); fi
    if out="$("$IMGTOOL" "${args[@]}" "$file" 2>&1 < /dev/null)"; then rc=0; else rc=$?; fi
    VERIFY_VERSION="-"; VERIFY_SHA="-"
    VERIFY_DETAIL="$(printf '%s\n' "$out" | tail -n 1)"
    if [[ $rc -eq 0 ]] && grep -q '^Image was correctly validated$' <<<"$out"; then
        VERIFY_RESULT=OK
        VERIFY_VERSION="$(sed -n 's/^Image version: //p' <<<"$out")"
        VERIFY_SHA="$(sed -n 's/^Image digest: //p' <<<"$out")"
        [[ -n "$VERIFY_VERSION" ]] || VERIFY_VERSION="-"
        [[ -n "$VERIFY_SHA" ]] || VERIFY_SHA="-"
    elif [[ $rc -eq 1 ]]; then
        case "$VERIFY_DETAIL" in
            "Invalid image magic; is this an MCUboot image?") VERIFY_RESULT=INVALID_MAGIC ;;
            "Invalid TLV info magic; is this an MCUboot image?") VERIFY_RESULT=INVALID_TLV_INFO_MAGIC ;;
            "Image has an invalid hash") VERIFY_RESULT=INVALID_HASH ;;
            "No signature found for the given key") VERIFY_RESULT=INVALID_SIGNATURE ;;
            "Key type does not match TLV record") VERIFY_RESULT=KEY_MISMATCH ;;
            *) VERIFY_RESULT=ERROR ;;
        esac
    else
        VERIFY_RESULT=ERROR
    fi
}

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'PASS  %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL  %s\n' "$*"; }

# check_case NAME FILE KEY|- WANT(OK|REJECT) IMGTOOL_RESULT IMGTOOL_VERSION IMGTOOL_SHA
# Runs dfu (unless --imgtool-only) and prints one PASS/FAIL line.
check_case() {
    local name="$1" file="$2" key="$3" want="$4" result="$5" version="$6" sha="$7"
    local summary="imgtool=$result"
    [[ "$version" == "-" ]] || summary+=" $version"
    if [[ $imgtool_only -eq 1 ]]; then
        pass "$name: $summary (want $want)"
        return
    fi
    local -a args=(verify "$file")
    if [[ "$key" != "-" ]]; then args+=(--key "$key"); fi
    args+=(--json)
    local rc
    if timeout 120 "$dfu" "${args[@]}" > "$work/dfu.out" 2> "$work/dfu.err" < /dev/null; then rc=0; else rc=$?; fi
    local verdict
    verdict="$(helper judge "$want" "$version" "$sha" "$rc" "$work/dfu.out" "$work/dfu.err")"
    local dfu_version problems
    dfu_version="$(head -n 1 <<<"$verdict")"
    problems="$(tail -n +2 <<<"$verdict" | paste -sd ';' - | sed 's/;/; /g')"
    if [[ -z "$problems" ]]; then
        pass "$name: $summary, dfu exit $rc ${dfu_version#version=}"
    else
        fail "$name: $summary, want $want: $problems"
    fi
}

# --- (a) the committed samples ----------------------------------------------------------------------
echo "== committed samples (firmware-samples/expected.tsv, imgtool-divergent.tsv)"
cd "$samples"
while IFS=$'\t' read -r file key result version sha; do
    [[ -n "$file" ]] || continue
    name="$file [key ${key##*/}]"
    imgtool_verify "$file" "$key"
    if [[ "$VERIFY_RESULT" != "$result" || "$VERIFY_VERSION" != "$version" || "$VERIFY_SHA" != "$sha" ]]; then
        fail "$name: expected.tsv says $result $version $sha but imgtool now says $VERIFY_RESULT $VERIFY_VERSION $VERIFY_SHA (re-run firmware-samples/generate.sh)"
        continue
    fi
    want=REJECT
    [[ "$result" == OK ]] && want=OK
    check_case "$name" "$samples/$file" "$([[ $key == - ]] && echo - || echo "$samples/$key")" \
        "$want" "$result" "$version" "$sha"
done < expected.tsv
while IFS=$'\t' read -r file key result mcuboot _why; do
    [[ -n "$file" ]] || continue
    name="$file [key ${key##*/}] (imgtool-divergent)"
    imgtool_verify "$file" "$key"
    if [[ "$VERIFY_RESULT" != "$result" ]]; then
        fail "$name: imgtool-divergent.tsv says imgtool gives $result but it now gives $VERIFY_RESULT (re-run firmware-samples/generate.sh)"
        continue
    fi
    # Held to MCUboot's verdict; the version/SHA are imgtool's when it said OK and MCUboot agrees.
    v="-" s="-"
    if [[ "$mcuboot" == OK && "$result" == OK ]]; then v="$VERIFY_VERSION" s="$VERIFY_SHA"; fi
    check_case "$name" "$samples/$file" "$([[ $key == - ]] && echo - || echo "$samples/$key")" \
        "$mcuboot" "$result (MCUboot: $mcuboot)" "$v" "$s"
done < imgtool-divergent.tsv

# --- (b) fresh keys nobody has seen -----------------------------------------------------------------
export CROSSCHECK_SEED="${CROSSCHECK_SEED:-$(helper seed)}"
echo "== fresh keys and images (CROSSCHECK_SEED=$CROSSCHECK_SEED)"
fresh="$work/fresh"
mkdir -p "$fresh"
algs=(ecdsa-p256 ed25519 rsa-2048 rsa-3072)
for alg in "${algs[@]}"; do
    for k in a b; do
        "$IMGTOOL" keygen -k "$fresh/$alg-$k.pem" -t "$alg"
        "$IMGTOOL" getpub -k "$fresh/$alg-$k.pem" --encoding pem -o "$fresh/$alg-$k.pub.pem"
    done
done

# fresh_case NAME FILE KEY|- INTENDED(OK|not-OK): imgtool first (it must say what the case is built
# to show, or the case proves nothing), then dfu against imgtool's verdict.
fresh_case() {
    local name="$1" file="$2" key="$3" intended="$4"
    imgtool_verify "$file" "$key"
    if [[ $intended == OK && $VERIFY_RESULT != OK ]] || [[ $intended == not-OK && $VERIFY_RESULT == OK ]]; then
        fail "$name: imgtool says $VERIFY_RESULT, the case was built to be $intended ($VERIFY_DETAIL)"
        return
    fi
    local want=REJECT
    [[ "$VERIFY_RESULT" == OK ]] && want=OK
    check_case "$name" "$file" "$key" "$want" "$VERIFY_RESULT" "$VERIFY_VERSION" "$VERIFY_SHA"
}

n=${#algs[@]}
for i in "${!algs[@]}"; do
    alg="${algs[$i]}"
    other="${algs[$(( (i + 1) % n ))]}"
    body="$fresh/$alg-body.bin" img="$fresh/$alg.signed.bin" bad="$fresh/$alg-tampered.bin"
    helper body "$alg" "$body"
    version="$(helper version "$alg")"
    hdr="$(helper pick "$alg-hdr" 0x20 0x80 0x200 0x400)"
    extra=()
    if [[ "$(helper pick "$alg-prot" yes no)" == yes ]]; then
        extra=(--security-counter "$(helper pick "$alg-cnt" 1 7 255 65536)")
    fi
    "$IMGTOOL" sign --header-size "$hdr" --pad-header --align 4 --slot-size 0x200000 \
        --version "$version" -k "$fresh/$alg-a.pem" "${extra[@]}" "$body" "$img" > /dev/null
    helper tamper "$alg" "$img" "$bad"
    tag="fresh/$alg v$version hdr $hdr${extra[*]:+ prot-tlv}"
    fresh_case "$tag: signed, its key" "$img" "$fresh/$alg-a.pub.pem" OK
    fresh_case "$tag: signed, no key" "$img" - OK
    fresh_case "$tag: signed, wrong fresh $alg key" "$img" "$fresh/$alg-b.pub.pem" not-OK
    fresh_case "$tag: signed, wrong fresh $other key" "$img" "$fresh/$other-a.pub.pem" not-OK
    fresh_case "$tag: tampered, its key" "$bad" "$fresh/$alg-a.pub.pem" not-OK
    fresh_case "$tag: tampered, wrong fresh $alg key" "$bad" "$fresh/$alg-b.pub.pem" not-OK
    fresh_case "$tag: tampered, no key" "$bad" - not-OK
done

# An unsigned image (hash TLV only): fine without a key, never with one.
helper body unsigned "$fresh/unsigned-body.bin"
version="$(helper version unsigned)"
"$IMGTOOL" sign --header-size 0x200 --pad-header --align 4 --slot-size 0x200000 --version "$version" \
    "$fresh/unsigned-body.bin" "$fresh/unsigned.bin" > /dev/null
fresh_case "fresh/unsigned v$version: no key" "$fresh/unsigned.bin" - OK
fresh_case "fresh/unsigned v$version: fresh ecdsa-p256 key" "$fresh/unsigned.bin" "$fresh/ecdsa-p256-a.pub.pem" not-OK

if [[ $imgtool_only -eq 1 ]]; then echo "(--imgtool-only: dfu was not run)"; fi
echo "imgtool-crosscheck: $passed passed, $failed failed"
[[ $failed -eq 0 ]]

#!/usr/bin/env bash
# nrfutil-crosscheck: does `dfu verify` agree with pc-nrfutil 6.1.7 (Nordic's own package tool) on the
# committed Nordic samples and on packages made with keys nobody has seen before?
#
#   scripts/nrfutil-crosscheck.sh [DFU_BINARY]     # default .build/debug/dfu
#
# (a) every row of firmware-samples/nordic-expected.tsv: `dfu verify FILE [--key KEY] [FLAGS] --json`
#     exits 0 on the OK rows and 3 on the others; on OK rows each image's fw_version, hw_version,
#     sd_req and init-packet hash are what nrfutil's own protobuf classes read from the .dat, and the
#     SHA-256 is hashlib's over the .bin.
# (b) fresh keys (made in a temp dir, never kept), random application bodies, versions, hw_version and
#     sd_req, packaged by nrfutil's library: signed (its key as PEM and as nrfutil's C array, no key,
#     a wrong fresh key, a flipped firmware byte, a flipped signature byte), unsigned (no key, a key,
#     a key with --allow-unsigned) and a signed bootloader; each held to the verdict it was built for.
# (c) `nrfutil dfu serial` (its own serial client, pyserial on a pty) flashes `dfu sim --serve serial:PATH
#     --protocol nordic` over UART (PRN 0 and 4) and USB, and the sim reports the new application
#     running. Needs nrfutil's CLI to start; if it cannot, one "SKIP: nrfutil-crosscheck serial: ..."
#     line says why and (a) and (b) still count.
#
# Needs python3 with venv and PyPI (test-only: the product never needs Python). nrfutil 6.1.7 is
# installed without its dependencies (as pinned they do not install on Python 3.11, reference §5.3),
# plus protobuf<4, ecdsa, intelhex, crcmod, click, pyyaml; for (c) also pyserial, tqdm, piccata,
# pyspinel and pc_ble_driver_py without its native part (only its exception class is imported),
# with which its CLI starts. If PyPI cannot be reached it prints
# "SKIP: nrfutil-crosscheck: PyPI unreachable (...)" and exits 0. Otherwise one line per case and then
# "nrfutil-crosscheck: N agreed, M disagreed"; exit 1 if M > 0, exit 2 if it could not run at all.
# CROSSCHECK_SEED=<int> repeats the bodies, versions and tamper offsets of an earlier run (keys are
# always new).
set -euo pipefail

NRFUTIL_VERSION=6.1.7
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
samples="$repo/firmware-samples"

case "${1:-}" in
    -h|--help) sed -n '2,29p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[[ $# -le 1 ]] || { echo "nrfutil-crosscheck: too many arguments (try --help)" >&2; exit 2; }
# shellcheck source=scripts/dfu-binary.sh
source "$repo/scripts/dfu-binary.sh"
resolve_dfu nrfutil-crosscheck "${1:-}"
[[ -f "$samples/nordic-expected.tsv" ]] \
    || { echo "nrfutil-crosscheck: missing $samples/nordic-expected.tsv (run firmware-samples/nordic/generate.sh)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/nrfutil-crosscheck.XXXXXX")"
sim_pid=""
cleanup() {
    # Only the sim this script started, by its id.
    if [[ -n "$sim_pid" ]]; then kill "$sim_pid" 2> /dev/null || true; wait "$sim_pid" 2> /dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# --- nrfutil's library in a throw-away venv ---------------------------------------------------------
# shellcheck source=scripts/pypi-venv.sh
source "$repo/scripts/pypi-venv.sh"
make_venv nrfutil-crosscheck "$work/venv"
pip=("$work/venv/bin/pip" install --disable-pip-version-check --quiet --timeout 20 --retries 1)
if ! { "${pip[@]}" --no-deps --ignore-requires-python "nrfutil==$NRFUTIL_VERSION" \
       && "${pip[@]}" 'protobuf<4' ecdsa intelhex crcmod click pyyaml; } > "$work/pip.log" 2>&1; then
    err="$(pip_failure "$work/pip.log")"
    echo "SKIP: nrfutil-crosscheck: PyPI unreachable (${err:-pip install nrfutil==$NRFUTIL_VERSION failed})"
    exit 0
fi
PY="$work/venv/bin/python"

cat > "$work/helper.py" <<'PYEOF'
"""make: fresh keys and packages with nrfutil's library. judge: dfu's JSON against nrfutil's reading."""
import hashlib
import json
import os
import random
import sys
import zipfile

from nordicsemi.dfu import dfu_cc_pb2 as pb
from nordicsemi.dfu.package import Package
from nordicsemi.dfu.signing import Signing


def facts(package):
    """What nrfutil's own classes read from each image of a package: {part: {...}}."""
    out = {}
    with zipfile.ZipFile(package) as z:
        manifest = json.loads(z.read("manifest.json"))["manifest"]
        for part, entry in manifest.items():
            packet = pb.Packet()
            packet.ParseFromString(z.read(entry["dat_file"]))
            command = packet.signed_command.command if packet.HasField("signed_command") else packet.command
            init = command.init
            out[part] = {
                "fw_version": init.fw_version, "hw_version": init.hw_version, "sd_req": list(init.sd_req),
                "init_packet_sha256": bytes(reversed(init.hash.hash)).hex(),
                "sha256": hashlib.sha256(z.read(entry["bin_file"])).hexdigest(),
            }
    return out


def cmd_judge(want, package, rc, stdout_path):
    rc = int(rc)
    problems = []
    want_rc = 0 if want == "OK" else 3
    if rc != want_rc:
        problems.append(f"dfu exited {rc}, expected {want_rc}")
    lines = [ln for ln in open(stdout_path, encoding="utf-8", errors="replace").read().splitlines() if ln.strip()]
    try:
        objects = [json.loads(ln) for ln in lines]
    except ValueError:
        objects = []
        problems.append("stdout is not JSON lines")
    results = [o for o in objects if isinstance(o, dict) and o.get("event") == "result"]
    if len(results) != 1:
        problems.append(f"{len(results)} result objects, expected 1")
    elif results[0].get("exit_code") != rc or results[0].get("ok") is not (rc == 0):
        problems.append("JSON ok/exit_code disagree with the exit status")
    elif want == "OK":
        expected = facts(package)
        images = {i.get("part"): i for i in results[0].get("images", [])}
        if set(images) != set(expected):
            problems.append(f"parts {sorted(images)}, nrfutil says {sorted(expected)}")
        for part, fact in expected.items():
            for field, value in fact.items():
                if part in images and images[part].get(field) != value:
                    problems.append(f"{part}.{field} {images[part].get(field)!r}, nrfutil says {value!r}")
    elif rc == 3 and not results[0].get("error"):
        problems.append("exit 3 without an error")
    for p in problems:
        print(p)


def flip(src, dst, suffix, offset_of):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = bytearray(zin.read(info.filename))
            if info.filename.endswith(suffix):
                data[offset_of(len(data))] ^= 0x01
            zout.writestr(info.filename, bytes(data))


def cmd_make(out, seed):
    rnd = random.Random(seed)
    for name in ("a", "b"):
        signer = Signing()
        signer.gen_key(os.path.join(out, f"key-{name}.pem"))
        signer.load_key(os.path.join(out, f"key-{name}.pem"))
        open(os.path.join(out, f"key-{name}.pub.pem"), "w").write(signer.get_vk("pem", False))
        open(os.path.join(out, f"key-{name}.pub.c"), "w").write(signer.get_vk("code", False))
    app = os.path.join(out, "app.bin")
    open(app, "wb").write(rnd.randbytes(rnd.randint(1024, 200 * 1024)))
    bootloader = os.path.join(out, "bl.bin")
    open(bootloader, "wb").write(rnd.randbytes(rnd.randint(4, 24) * 1024))
    hw = rnd.choice([52, 53, 0x1234])
    sd_req = sorted(rnd.sample([0x0101, 0x0103, 0x0104, 0x0118, 0x0123], rnd.randint(1, 3)))
    version = rnd.randint(0, 2**32 - 2)

    def make(path, signed, **fw):
        signer = None
        if signed:
            signer = Signing()
            signer.load_key(os.path.join(out, "key-a.pem"))
        Package(hw_version=hw, sd_req=sd_req, sd_id=sd_req, signer=signer, **fw).generate_package(path)

    make(os.path.join(out, "signed.zip"), True, app_fw=app, app_version=version)
    make(os.path.join(out, "unsigned.zip"), False, app_fw=app, app_version=version)
    make(os.path.join(out, "bootloader.zip"), True, bootloader_fw=bootloader, bl_version=rnd.randint(1, 1000))
    flip(os.path.join(out, "signed.zip"), os.path.join(out, "tampered-bin.zip"), ".bin", lambda n: rnd.randrange(n))
    flip(os.path.join(out, "signed.zip"), os.path.join(out, "tampered-sig.zip"), ".dat", lambda n: n - 1 - rnd.randrange(64))
    print(f"app {os.path.getsize(app)} bytes, app_version {version}, hw_version {hw}, sd_req {[hex(s) for s in sd_req]}")


cmd = sys.argv[1]
if cmd == "seed":
    print(random.SystemRandom().randrange(2**31))
elif cmd == "make":
    cmd_make(sys.argv[2], int(sys.argv[3]))
elif cmd == "judge":
    cmd_judge(*sys.argv[2:])
else:
    raise SystemExit(f"unknown command {cmd}")
PYEOF
helper() { "$PY" "$work/helper.py" "$@"; }

agreed=0
disagreed=0
# check NAME WANT(OK|REFUSED) PACKAGE [dfu args after the package...]
check() {
    local name="$1" want="$2" package="$3"
    shift 3
    local rc
    if timeout 120 "$dfu" verify "$package" "$@" --json > "$work/dfu.out" 2> "$work/dfu.err" < /dev/null; then rc=0; else rc=$?; fi
    local problems
    problems="$(helper judge "$want" "$package" "$rc" "$work/dfu.out" | paste -sd ';' - | sed 's/;/; /g')"
    if [[ -z "$problems" ]]; then
        agreed=$((agreed + 1))
        printf 'AGREE     %s: want %s, dfu exit %s\n' "$name" "$want" "$rc"
    else
        disagreed=$((disagreed + 1))
        printf 'DISAGREE  %s: want %s: %s %s\n' "$name" "$want" "$problems" "$(head -c 160 "$work/dfu.err")"
    fi
}

echo "== committed samples (firmware-samples/nordic-expected.tsv)"
while IFS=$'\t' read -r file key flags verdict problem; do
    [[ -n "$file" ]] || continue
    args=()
    [[ "$key" == - ]] || args+=(--key "$samples/$key")
    [[ "$flags" == - ]] || args+=("$flags")
    label="key ${key##*/}"
    [[ "$flags" == - ]] || label+=" $flags"
    check "$file [$label]" "$verdict" "$samples/$file" "${args[@]}"
done < "$samples/nordic-expected.tsv"

export CROSSCHECK_SEED="${CROSSCHECK_SEED:-$(helper seed)}"
echo "== fresh keys and packages (CROSSCHECK_SEED=$CROSSCHECK_SEED)"
fresh="$work/fresh"
mkdir -p "$fresh"
echo "   $(helper make "$fresh" "$CROSSCHECK_SEED")"
check "fresh signed, its key (PEM)" OK "$fresh/signed.zip" --key "$fresh/key-a.pub.pem"
check "fresh signed, its key (nrfutil C array)" OK "$fresh/signed.zip" --key "$fresh/key-a.pub.c"
check "fresh signed, no key" OK "$fresh/signed.zip"
check "fresh signed, wrong fresh key" REFUSED "$fresh/signed.zip" --key "$fresh/key-b.pub.pem"
check "fresh signed, firmware byte flipped" REFUSED "$fresh/tampered-bin.zip" --key "$fresh/key-a.pub.pem"
check "fresh signed, firmware byte flipped, no key" REFUSED "$fresh/tampered-bin.zip"
check "fresh signed, signature byte flipped" REFUSED "$fresh/tampered-sig.zip" --key "$fresh/key-a.pub.c"
check "fresh unsigned, no key" OK "$fresh/unsigned.zip"
check "fresh unsigned, a key" REFUSED "$fresh/unsigned.zip" --key "$fresh/key-a.pub.pem"
check "fresh unsigned, a key, --allow-unsigned" OK "$fresh/unsigned.zip" --key "$fresh/key-a.pub.pem" --allow-unsigned
check "fresh bootloader, its key" OK "$fresh/bootloader.zip" --key "$fresh/key-a.pub.pem"
check "fresh bootloader, wrong fresh key" REFUSED "$fresh/bootloader.zip" --key "$fresh/key-b.pub.c"

# --- (c) nrfutil dfu serial against dfu's Nordic serial sim ------------------------------------------
# nrfutil's own serial DFU client (DfuTransportSerial over pyserial) flashes `dfu sim --serve
# serial:PATH --protocol nordic` (a pseudo-terminal); the sim must report the package's application
# running afterwards. The CLI needs pyserial and the modules nrfutil's __main__ imports (pc_ble_driver_py
# for its exception class, without its native part; pyspinel, piccata, tqdm).
serial_skip=""
if ! { "${pip[@]}" pyserial tqdm piccata 'pyspinel>=1.0.0a3' \
       && "${pip[@]}" --no-deps pc_ble_driver_py; } > "$work/pip-serial.log" 2>&1; then
    serial_skip="pip install of nrfutil's serial dependencies failed: $(grep -m 1 -E '^(ERROR|error)' "$work/pip-serial.log" || tail -n 1 "$work/pip-serial.log")"
elif ! "$work/venv/bin/nrfutil" dfu serial --help > "$work/nrfutil-help.log" 2>&1; then
    serial_skip="nrfutil dfu serial cannot start here: $(grep -v '^\s' "$work/nrfutil-help.log" | tail -n 1)"
fi

# serial_check NAME PRN SERVE [sim flags...]: a fresh sim, nrfutil flashes the signed sample, the sim reports fw_version 3.
serial_check() {
    local name="$1" prn="$2" serve="$3"
    shift 3
    local port="$work/tty-$agreed-$disagreed"
    "$dfu" sim --serve "serial:$port,baud=1000000$serve" --protocol nordic "$@" > "$work/sim.out" 2> "$work/sim.err" < /dev/null &
    sim_pid=$!
    local waited=0
    until grep -q '^dfu sim: serving Nordic Secure DFU' "$work/sim.out" 2> /dev/null || (( waited >= 100 )); do
        sleep 0.1; waited=$((waited + 1))
    done
    local rc=0 problems=""
    timeout 120 "$work/venv/bin/nrfutil" dfu serial -pkg "$samples/nordic/app-signed-3.zip" -p "$port" -b 1000000 \
        -cd 0 -t 3 -prn "$prn" > "$work/nrfutil.out" 2>&1 < /dev/null || rc=$?
    waited=0
    until grep -q 'up again (boot 1), running application 0.0.3 (fw_version 3)' "$work/sim.out" || (( waited >= 50 )); do
        sleep 0.1; waited=$((waited + 1))
    done
    [[ $rc -eq 0 ]] || problems="nrfutil exited $rc: $(grep -v '^\s' "$work/nrfutil.out" | tail -n 1)"
    grep -q 'Device programmed' "$work/nrfutil.out" || problems="$problems; nrfutil did not say 'Device programmed'"
    grep -q 'up again (boot 1), running application 0.0.3 (fw_version 3)' "$work/sim.out" \
        || problems="$problems; the sim does not report fw_version 3 running ($(tail -n 1 "$work/sim.out"))"
    kill "$sim_pid" 2> /dev/null || true
    wait "$sim_pid" 2> /dev/null || true
    sim_pid=""
    if [[ -z "$problems" ]]; then
        agreed=$((agreed + 1))
        printf 'AGREE     %s: nrfutil flashed the sim, which runs fw_version 3\n' "$name"
    else
        disagreed=$((disagreed + 1))
        printf 'DISAGREE  %s: %s\n' "$name" "${problems#; }"
    fi
}

echo "== nrfutil dfu serial against dfu sim --serve serial:PATH --protocol nordic"
if [[ -n "$serial_skip" ]]; then
    echo "SKIP: nrfutil-crosscheck serial: $serial_skip"
else
    serial_check "UART (MTU 131), PRN 0" 0 ""
    serial_check "UART (MTU 131), PRN 4 (receipts as checksum answers)" 4 ""
    serial_check "USB (MTU 2051), PRN 0, the port vanishing at the reset" 0 ",usb"
fi

echo "nrfutil-crosscheck: $agreed agreed, $disagreed disagreed"
[[ $disagreed -eq 0 ]]

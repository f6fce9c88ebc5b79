#!/usr/bin/env bash
# smpclient-serial-crosscheck: does the virtual device, served on a pseudo-terminal by `dfu sim
# --serve serial:PATH…`, answer a real SMP client over a serial line the way a Zephyr/MCUboot device
# does, and does `dfu flash --device serial:…` update it? The clients are smpclient 7.3.0 and smpmgr
# 0.19.1 from PyPI (SMPSerialTransport for Zephyr's console framing, SMPSerialRawTransport for raw
# SMP), nothing of ours. The UDP twin is scripts/smpclient-crosscheck.sh; the checks themselves are
# its helper's (scripts/smpclient-crosscheck.py with ADDR serial:PATH[,raw][,baud=N]).
#
#   scripts/smpclient-serial-crosscheck.sh [DFU_BINARY]     # default .build/debug/dfu
#
# Device S (console framing): echo (smpclient and smpmgr --port), MCUmgr params, the state list,
# then the explicit flow with smpclient: upload blinky-ecdsa-p256-1.1.0, mark it for test, reset,
# wait until it answers again, state shows 1.1.0 active and unconfirmed with imgtool's hash
# (firmware-samples/expected.tsv), confirm, state shows it confirmed (also read with smpmgr); the
# sim's log and its exit 0 on SIGTERM. Device R (`,raw`): echo, state, upload with
# SMPSerialRawTransport. Device N (`,noise=3`: a Zephyr log line between every third reply): an
# upload by smpclient, which must set the log lines aside. Then, at 115200 and at 1000000 baud (the
# same rate on both sides), each on a fresh sim: smpmgr's CLI uploads (state read back by smpmgr),
# smpclient uploads, and `dfu flash … --device serial:PATH,baud=N` updates it, which smpclient then
# finds running 1.1.0 confirmed. Each of those uploads also prints an info line (not a check), from
# the upload's first request to its last reply (smpmgr: from its log file; dfu: its own "uploaded …
# in S s"):
#   serial-timing: TOOL BAUD SECONDS KB/s        (KB = 1000 bytes of the 49816-byte image)
#
# Each sim's pseudo-terminal is linked in a temporary directory; the script stops the sims it
# started, and only them.
#
# Needs python3 with venv and PyPI (test-only). If PyPI cannot be reached it prints
# "SKIP: smpclient-serial-crosscheck: PyPI unreachable (...)" and exits 0. Otherwise one line per
# check, the timing lines, then "smpclient-serial-crosscheck: N passed, M failed"; exit 1 if M > 0,
# exit 2 if it could not run at all (no dfu binary, bad arguments, a sim that would not start).
set -euo pipefail

scripts="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
helper_py="$scripts/smpclient-crosscheck.py"
me=smpclient-serial-crosscheck

case "${1:-}" in
    -h|--help) sed -n '2,31p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
# The pinned clients, the image, the dfu binary, a temporary directory and the venv.
# shellcheck source=scripts/smpclient-common.sh
source "$scripts/smpclient-common.sh"

# check NAME HELPER-ARGS...: one smpclient check; its last output line is the detail, kept in CHECK_OUT.
check() {
    local name="$1"
    shift
    if CHECK_OUT="$(timeout 120 "$PY" "$helper_py" "$@" 2>&1)"; then
        CHECK_OUT="$(tail -n 1 <<< "$CHECK_OUT")"
        pass "$name: $CHECK_OUT"
    else
        CHECK_OUT="$(tail -n 1 <<< "$CHECK_OUT")"
        fail "$name: $CHECK_OUT"
        return 1
    fi
}

# timing TOOL BAUD SECONDS: the info line for docs/performance.md (not a check).
timing() {
    awk -v tool="$1" -v baud="$2" -v s="$3" -v n="$image_size" \
        'BEGIN { printf "serial-timing: %s %s %.2f %.1f KB/s\n", tool, baud, s, n / 1000 / s }'
}

# start_sim NAME OPTIONS: `dfu sim --serve serial:$work/NAME.tty OPTIONS` (",raw", ",baud=N"…), waiting
# for its ready line; sets SIM_TTY, SIM_PID, SIM_OUT.
start_sim() {
    local name="$1" options="$2" pid i
    SIM_TTY="$work/$name.tty" SIM_OUT="$work/$name.out"
    : > "$SIM_OUT"  # there before the sim's own redirection, for the first grep
    "$dfu" sim --serve "serial:$SIM_TTY$options" > "$SIM_OUT" 2> "$work/$name.err" < /dev/null &
    pid=$!
    sim_pids+=("$pid")
    for ((i = 0; i < 400; i++)); do
        if grep -q '^dfu sim: serving SMP on serial ' "$SIM_OUT"; then
            SIM_PID="$pid"
            echo "== device $name: $(head -n 1 "$SIM_OUT" | sed 's/^dfu sim: //')"
            return 0
        fi
        kill -0 "$pid" 2> /dev/null || break
        sleep 0.05
    done
    echo "$me: could not start dfu sim ($name): $(head -n 1 "$work/$name.err")" >&2
    return 1
}

# stop_sim NAME: SIGTERM to the last sim started, then its exit status must be 0 and its last line say so.
stop_sim() {
    local name="$1" rc=0
    kill -TERM "$SIM_PID" 2> /dev/null || true
    wait "$SIM_PID" || rc=$?
    if [[ $rc -eq 0 ]] && tail -n 1 "$SIM_OUT" | grep -q '^dfu sim: stopped by SIGTERM'; then
        pass "$name dfu sim: SIGTERM stops it, exit 0 ($(tail -n 1 "$SIM_OUT" | sed 's/^dfu sim: //'))"
    else
        fail "$name dfu sim: SIGTERM gave exit $rc, last line '$(tail -n 1 "$SIM_OUT")'"
    fi
}

# smpmgr_slot NAME SLOT WANT ARGS...: `smpmgr ARGS... image state-read`; the SLOT entry of its printout
# must hold 1.1.0 with the image's hash and, if WANT is given (e.g. confirmed=True), say WANT.
smpmgr_slot() {
    local name="$1" slot="$2" want="$3" out entry=""
    shift 3
    if out="$(timeout 60 "$SMPMGR" "$@" image state-read 2>&1)" \
       && entry="$(awk -v s="slot=$slot," '$0 ~ s { on = 1 } on { print } on && /permanent=/ { exit }' <<< "$out")" \
       && grep -q "version='1.1.0'" <<< "$entry" && { [[ -z "$want" ]] || grep -q "$want" <<< "$entry"; } \
       && grep -qi "$image_hash" <<< "$(tr -d " \n'" <<< "$entry")"; then
        pass "$name: slot $slot 1.1.0${want:+ $want}, hash ${image_hash:0:16}…"
    else
        fail "$name: slot $slot is not 1.1.0${want:+ $want} with the image's hash: $(tr -s ' \n' ' ' <<< "${entry:-$out}" | cut -c 1-200)"
    fi
}

# smpmgr_upload NAME BAUD: smpmgr's CLI uploads the image over the last sim's line; exit 0, and the
# seconds from its connect (the MCUmgr params reply) to "Upload complete", from its DEBUG log file,
# in SMPMGR_SECONDS.
smpmgr_upload() {
    local name="$1" baud="$2" rc=0 log="$work/smpmgr-$2.log"
    SMPMGR_SECONDS=""
    timeout 120 "$SMPMGR" --port "$SIM_TTY" --baudrate "$baud" --loglevel INFO --logfile "$log" \
        image upload "$image" > "$work/smpmgr.out" 2>&1 < /dev/null || rc=$?
    # asctime is "YYYY-MM-DD HH:MM:SS,mmm"; the upload does not cross midnight in a run of minutes.
    SMPMGR_SECONDS="$(awk '
        function t(line,  f) { split(substr(line, 12, 12), f, /[:,]/); return f[1] * 3600 + f[2] * 60 + f[3] + f[4] / 1000 }
        /MCUMgr parameters: / && start == "" { start = t($0) }
        /- Upload complete/ { end = t($0) }
        END { if (start != "" && end != "") printf "%.2f", end - start }' "$log" 2> /dev/null || true)"
    if [[ $rc -eq 0 && -n "$SMPMGR_SECONDS" ]]; then
        pass "$name: smpmgr --port … --baudrate $baud image upload: exit 0, $SMPMGR_SECONDS s"
    else
        fail "$name: smpmgr image upload: exit $rc: $(tail -n 3 "$work/smpmgr.out" | tr -s ' \n' ' ' | cut -c 1-200)"
        return 1
    fi
}

# dfu_flash NAME BAUD: `dfu flash` over the last sim's line (console framing) at BAUD; exit 0, its
# upload's seconds in DFU_SECONDS.
dfu_flash() {
    local name="$1" baud="$2" rc=0
    DFU_SECONDS=""
    timeout 120 "$dfu" flash "$image" --key "$key" --device "serial:$SIM_TTY,baud=$baud" \
        > "$work/flash.out" 2> "$work/flash.err" < /dev/null || rc=$?
    DFU_SECONDS="$(sed -n 's/^uploaded .* in \([0-9.]*\) s: .*/\1/p' "$work/flash.out" | head -n 1)"
    if [[ $rc -eq 0 ]]; then
        pass "$name: dfu flash --device serial:PATH,baud=$baud: exit 0 ($(tail -n 1 "$work/flash.out"))"
    else
        fail "$name: dfu flash --device serial:PATH,baud=$baud: exit $rc: $(tail -n 1 "$work/flash.err" "$work/flash.out" | grep -v '^==' | tr -s '\n' ' ' | cut -c 1-300)"
        return 1
    fi
}

seconds_of() { sed -n 's/.* \([0-9.]*\) s\(,.*\)\{0,1\}$/\1/p' <<< "$1"; }

# --- device S: console framing, the explicit flow -------------------------------------------------------
start_sim S "" || exit 2
s="serial:$SIM_TTY"
check "S echo (smpclient)" echo "$s" || true
if out="$(timeout 60 "$SMPMGR" --port "$SIM_TTY" --baudrate 115200 os echo smpmgr-crosscheck 2>&1)" \
   && grep -q "r='smpmgr-crosscheck'" <<< "$out"; then
    pass "S echo (smpmgr --port): r='smpmgr-crosscheck'"
else
    fail "S echo (smpmgr --port): $(tail -n 1 <<< "$out")"
fi
check "S mcumgr params" params "$s" 2475 4 || true
check "S state before" state "$s" "0:1.0.0:active,confirmed" || true
check "S upload 1.1.0" upload "$s" "$image" || true
check "S state after upload" state "$s" "0:1.0.0:active,confirmed" "1:1.1.0:not-pending:$image_hash" || true
check "S mark for test" test "$s" "$image_hash" || true
check "S reset" reset "$s" || true
check "S back after the swap" wait-up "$s" 60 || true
check "S state after reset: 1.1.0 active, unconfirmed" state "$s" \
    "0:1.1.0:active,unconfirmed:$image_hash" "1:1.0.0:inactive,confirmed" || true
check "S confirm" confirm "$s" || true
check "S state after confirm" state "$s" "0:1.1.0:active,confirmed:$image_hash" || true
smpmgr_slot "S state read (smpmgr --port)" 0 "confirmed=True" --port "$SIM_TTY" --baudrate 115200
if grep -q "^dfu sim: upload complete: $image_size bytes" "$SIM_OUT" \
   && grep -q '^dfu sim: resetting: MCUboot swapped in for test' "$SIM_OUT" \
   && grep -q '^dfu sim: up again (boot 2), running 1.1.0' "$SIM_OUT"; then
    pass "S sim log: upload complete, swapped in for test, up again running 1.1.0"
else
    fail "S sim log lacks the upload, swap or boot line: $(tr '\n' '|' < "$SIM_OUT" | cut -c 1-300)"
fi
stop_sim S

# --- device R: raw SMP (SMPSerialRawTransport) -----------------------------------------------------------
start_sim R ",raw" || exit 2
r="serial:$SIM_TTY,raw"
check "R echo (raw)" echo "$r" || true
check "R state before (raw)" state "$r" "0:1.0.0:active,confirmed" || true
check "R upload 1.1.0 (raw)" upload "$r" "$image" || true
check "R state after upload (raw)" state "$r" "0:1.0.0:active,confirmed" "1:1.1.0:not-pending:$image_hash" || true
stop_sim R

# --- device N: log lines between the frames ----------------------------------------------------------------
start_sim N ",noise=3" || exit 2
check "N upload 1.1.0 through log noise" upload-noisy "serial:$SIM_TTY" "$image" || true
check "N state after upload" state "serial:$SIM_TTY" "0:1.0.0:active,confirmed" "1:1.1.0:not-pending:$image_hash" || true
stop_sim N

# --- at 115200 and 1000000 baud: smpmgr, smpclient and dfu; their upload times -----------------------------
timings=()
for baud in 115200 1000000; do
    start_sim "U$baud" ",baud=$baud" || exit 2
    if smpmgr_upload "U$baud upload 1.1.0 (smpmgr)" "$baud"; then
        timings+=("$(timing smpmgr "$baud" "$SMPMGR_SECONDS")")
    fi
    smpmgr_slot "U$baud state read after the smpmgr upload (smpmgr)" 1 "" --port "$SIM_TTY" --baudrate "$baud"
    stop_sim "U$baud"

    # Each tool on a fresh sim: a slot that already holds an image takes longer to erase.
    start_sim "C$baud" ",baud=$baud" || exit 2
    c="serial:$SIM_TTY,baud=$baud"
    if check "C$baud upload 1.1.0 (smpclient)" upload "$c" "$image"; then
        timings+=("$(timing smpclient "$baud" "$(seconds_of "$CHECK_OUT")")")
    fi
    check "C$baud state after the upload" state "$c" "0:1.0.0:active,confirmed" "1:1.1.0:not-pending:$image_hash" || true
    stop_sim "C$baud"

    start_sim "F$baud" ",baud=$baud" || exit 2
    if dfu_flash "F$baud" "$baud" && [[ -n "$DFU_SECONDS" ]]; then
        timings+=("$(timing dfu "$baud" "$DFU_SECONDS")")
    fi
    check "F$baud state after dfu flash (smpclient)" state "serial:$SIM_TTY,baud=$baud" \
        "0:1.1.0:active,confirmed:$image_hash" || true
    stop_sim "F$baud"
done

printf '%s\n' "${timings[@]}"
echo "$me: $passed passed, $failed failed"
[[ $failed -eq 0 ]]

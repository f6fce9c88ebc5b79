#!/usr/bin/env bash
# smpclient-crosscheck: does the virtual device, served by `dfu sim --serve udp:…`, answer a real
# SMP client the way a Zephyr/MCUboot device does? The clients are smpclient 7.3.0 and smpmgr
# 0.19.1 from PyPI (reference smp-mcuboot.md §8), nothing of ours.
#
#   scripts/smpclient-crosscheck.sh [DFU_BINARY]     # default .build/debug/dfu
#
# Device A (`dfu sim`, running 1.0.0): echo (smpclient and smpmgr), MCUmgr params, the state list,
# two refused uploads (broken header magic: err 23; longer than the slot: err 30), then the explicit
# flow of §8 with smpclient: upload blinky-ecdsa-p256-1.1.0, mark it for test, reset, wait until the
# device answers again, state shows 1.1.0 active and unconfirmed with imgtool's hash
# (firmware-samples/expected.tsv), confirm, state shows it confirmed (also read with smpmgr); the
# sim's own log and its exit 0 on SIGTERM. Device B (a fresh `dfu sim`): `dfu flash … --device
# udp:HOST:1337` exits 0 and smpclient finds 1.1.0 confirmed; skipped while dfu has no flash.
# Device C (a fresh `dfu sim`): smpclient uploads 1.1.0, then dfu's own everyday commands do the
# rest (`dfu image list`, `image test`, `reset --wait`, `image confirm`, `image erase`, `echo`),
# each checked by what dfu prints and by what smpclient (and smpmgr) read back from the device.
#
# smpclient always talks to port 1337, so each sim binds 127.0.0.X:1337 with X random in 2..250,
# trying another X when that address is busy. The script stops the sims it started, and only them.
#
# Needs python3 with venv and PyPI (test-only). If PyPI cannot be reached it prints
# "SKIP: smpclient-crosscheck: PyPI unreachable (...)" and exits 0. Otherwise one line per check,
# then "smpclient-crosscheck: N passed, M failed"; exit 1 if M > 0, exit 2 if it could not run at
# all (no dfu binary, bad arguments, no free 127.0.0.X).
set -euo pipefail

scripts="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
helper_py="$scripts/smpclient-crosscheck.py"
me=smpclient-crosscheck

case "${1:-}" in
    -h|--help) sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
# The pinned clients, the image, the dfu binary, a temporary directory and the venv.
# shellcheck source=scripts/smpclient-common.sh
source "$scripts/smpclient-common.sh"

# check NAME HELPER-ARGS...: one smpclient check; its last output line is the detail.
check() {
    local name="$1" out
    shift
    if out="$(timeout 120 "$PY" "$helper_py" "$@" 2>&1)"; then
        pass "$name: $(tail -n 1 <<< "$out")"
    else
        fail "$name: $(tail -n 1 <<< "$out")"
    fi
}

# start_sim NAME: starts `dfu sim` on 127.0.0.X:1337 and waits for its ready line; sets SIM_HOST,
# SIM_PID, SIM_OUT. Another X when the address is busy; returns 1 if no sim could start.
start_sim() {
    local name="$1" attempt x pid i
    SIM_OUT="$work/$name.out"
    for attempt in 1 2 3 4 5 6 7 8; do
        x=$((RANDOM % 249 + 2))
        "$dfu" sim --serve "udp:127.0.0.$x:1337" > "$SIM_OUT" 2> "$work/$name.err" < /dev/null &
        pid=$!
        sim_pids+=("$pid")
        # The ready line, or the process ending (a busy address), within 20 s.
        for ((i = 0; i < 400; i++)); do
            if grep -q '^dfu sim: serving SMP over UDP on ' "$SIM_OUT"; then
                SIM_HOST="127.0.0.$x" SIM_PID="$pid"
                return 0
            fi
            kill -0 "$pid" 2> /dev/null || break
            sleep 0.05
        done
        kill -TERM "$pid" 2> /dev/null || true
        wait "$pid" 2> /dev/null || true
        grep -q 'EADDRINUSE' "$work/$name.err" || break
    done
    echo "$me: could not start dfu sim ($name): $(head -n 1 "$work/$name.err")" >&2
    return 1
}

# stop_sim PID OUT NAME: SIGTERM, then the exit status must be 0 and the last line say so.
stop_sim() {
    local pid="$1" out="$2" name="$3" rc=0
    kill -TERM "$pid" 2> /dev/null || true
    wait "$pid" || rc=$?
    if [[ $rc -eq 0 ]] && tail -n 1 "$out" | grep -q '^dfu sim: stopped by SIGTERM'; then
        pass "$name: SIGTERM stops it, exit 0 ($(tail -n 1 "$out" | sed 's/^dfu sim: //'))"
    else
        fail "$name: SIGTERM gave exit $rc, last line '$(tail -n 1 "$out")'"
    fi
}

# --- device A: the explicit flow with smpclient -------------------------------------------------------
start_sim device-a || exit 2
a="$SIM_HOST" a_pid="$SIM_PID" a_out="$SIM_OUT"
echo "== device A: $(head -n 1 "$a_out" | sed 's/^dfu sim: //')"
check "A echo (smpclient)" echo "$a"
if out="$(timeout 60 "$SMPMGR" --ip "$a" os echo smpmgr-crosscheck 2>&1)" && grep -q "r='smpmgr-crosscheck'" <<< "$out"; then
    pass "A echo (smpmgr): r='smpmgr-crosscheck'"
else
    fail "A echo (smpmgr): $(tail -n 1 <<< "$out")"
fi
check "A mcumgr params" params "$a" 2475 4
check "A state before" state "$a" "0:1.0.0:active,confirmed"
check "A refused upload: broken header magic" refuse-magic "$a" "$image"
check "A refused upload: longer than the slot" refuse-size "$a" "$image" $((0x60000 + 1))
check "A upload 1.1.0" upload "$a" "$image"
check "A state after upload" state "$a" "0:1.0.0:active,confirmed" "1:1.1.0:not-pending:$image_hash"
check "A mark for test" test "$a" "$image_hash"
check "A reset" reset "$a"
check "A back after the swap" wait-up "$a" 60
check "A state after reset: 1.1.0 active, unconfirmed" state "$a" \
    "0:1.1.0:active,unconfirmed:$image_hash" "1:1.0.0:inactive,confirmed"
check "A confirm" confirm "$a"
check "A state after confirm" state "$a" "0:1.1.0:active,confirmed:$image_hash"
# smpmgr_confirmed NAME HOST: smpmgr's view of the state: the slot 0 entry of its printout must be
# 1.1.0, confirmed, with the image's hash.
smpmgr_confirmed() {
    local name="$1" host="$2" out slot0=""
    if out="$(timeout 60 "$SMPMGR" --ip "$host" image state-read 2>&1)" \
       && slot0="$(awk '/slot=0,/ { on = 1 } on { print } on && /permanent=/ { exit }' <<< "$out")" \
       && grep -q "version='1.1.0'" <<< "$slot0" && grep -q "confirmed=True" <<< "$slot0" \
       && grep -qi "$image_hash" <<< "$(tr -d " \n'" <<< "$slot0")"; then
        pass "$name: slot 0 1.1.0 confirmed, hash ${image_hash:0:16}…"
    else
        fail "$name: slot 0 is not 1.1.0 confirmed with the image's hash: $(tr -s ' \n' ' ' <<< "${slot0:-$out}" | cut -c 1-200)"
    fi
}
smpmgr_confirmed "A state read (smpmgr)" "$a"
if grep -q '^dfu sim: upload complete: 49816 bytes, slot 1 holds 1.1.0' "$a_out" \
   && grep -q '^dfu sim: resetting: MCUboot swapped in for test' "$a_out" \
   && grep -q '^dfu sim: up again (boot 2), running 1.1.0' "$a_out"; then
    pass "A sim log: upload complete, swapped in for test, up again running 1.1.0"
else
    fail "A sim log lacks the upload, swap or boot line: $(tr '\n' '|' < "$a_out" | cut -c 1-300)"
fi
stop_sim "$a_pid" "$a_out" "A dfu sim"

# --- device B: dfu flash over UDP against a fresh sim ----------------------------------------------------
if "$dfu" flash --help > /dev/null 2>&1; then
    start_sim device-b || exit 2
    b="$SIM_HOST" b_pid="$SIM_PID" b_out="$SIM_OUT"
    echo "== device B: $(head -n 1 "$b_out" | sed 's/^dfu sim: //')"
    rc=0
    timeout 300 "$dfu" flash "$image" --key "$key" --device "udp:$b:1337" > "$work/flash.out" 2> "$work/flash.err" \
        < /dev/null || rc=$?
    if [[ $rc -eq 0 ]]; then
        pass "B dfu flash --device udp:$b:1337: exit 0 ($(tail -n 1 "$work/flash.out"))"
    else
        fail "B dfu flash --device udp:$b:1337: exit $rc: $(tail -n 1 "$work/flash.err" "$work/flash.out" | grep -v '^==' | tr -s '\n' ' ' | cut -c 1-300)"
    fi
    check "B state after dfu flash (smpclient)" state "$b" "0:1.1.0:active,confirmed:$image_hash"
    stop_sim "$b_pid" "$b_out" "B dfu sim"
else
    echo "(dfu has no flash command yet: device B not run)"
fi

# --- device C: dfu's everyday commands, read back by smpclient and smpmgr ---------------------------
# dfu_step NAME TEXT ARGS...: `dfu ARGS...` must exit 0 and print a line containing TEXT.
dfu_step() {
    local name="$1" text="$2" rc=0
    shift 2
    timeout 120 "$dfu" "$@" > "$work/step.out" 2> "$work/step.err" < /dev/null || rc=$?
    if [[ $rc -eq 0 ]] && grep -qF -- "$text" "$work/step.out"; then
        pass "$name: $(grep -F -m 1 -- "$text" "$work/step.out")"
    else
        fail "$name: exit $rc: $(cat "$work/step.err" "$work/step.out" | tr -s '\n' ' ' | cut -c 1-300)"
    fi
}
if "$dfu" image list --help > /dev/null 2>&1; then
    start_sim device-c || exit 2
    c="$SIM_HOST" c_pid="$SIM_PID" c_out="$SIM_OUT" cdev="udp:$SIM_HOST:1337"
    echo "== device C: $(head -n 1 "$c_out" | sed 's/^dfu sim: //')"
    check "C upload 1.1.0 (smpclient)" upload "$c" "$image"
    dfu_step "C dfu image list" "image 0 slot 1: 1.1.0+0  bootable" image list --device "$cdev"
    dfu_step "C dfu image list shows the hash" "  hash $image_hash" image list --device "$cdev"
    dfu_step "C dfu image test" "image 0 slot 1: 1.1.0+0  pending bootable" image test "$image_hash" --device "$cdev"
    check "C state after dfu image test (smpclient)" state "$c" "0:1.0.0:active,confirmed" "1:1.1.0:pending:$image_hash"
    dfu_step "C dfu reset --wait" "is back after" reset --wait --device "$cdev"
    check "C state after dfu reset (smpclient): 1.1.0 active, unconfirmed" state "$c" \
        "0:1.1.0:active,unconfirmed:$image_hash" "1:1.0.0:inactive,confirmed"
    dfu_step "C dfu image confirm" "runs and is confirmed" image confirm --device "$cdev"
    smpmgr_confirmed "C state read after dfu image confirm (smpmgr)" "$c"
    dfu_step "C dfu image erase" "image 0 slot 1: empty" image erase --device "$cdev"
    check "C slot 1 gone after dfu image erase (smpclient)" empty "$c" 1
    dfu_step "C dfu echo" "crosscheck-echo" echo crosscheck-echo --device "$cdev"
    stop_sim "$c_pid" "$c_out" "C dfu sim"
else
    echo "(dfu has no image commands yet: device C not run)"
fi

echo "$me: $passed passed, $failed failed"
[[ $failed -eq 0 ]]

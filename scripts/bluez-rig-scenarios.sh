#!/bin/bash
# The `make test-bluez` scenarios, run as root inside the BlueZ rig (docs/test-bluez.md): dfu sim
# serves the virtual device as a BLE peripheral on controller A, and dfu scan, info and flash reach
# it from controller B through the real bluetoothd.
#
#   bluez-rig-scenarios.sh [DFU] [--only NAME[,NAME...]] [--skip NAME[,NAME...]] [--logs DIR] [--smpclient DIR]
#
# DFU is the dfu binary (default .build/test-bluez/dfu: a static release build, see
# scripts/test-bluez.sh). Prints `PASS name` or `FAIL name: why` (with output excerpts below it)
# per scenario, then one `bluez-rig-scenarios: N passed, N failed` line. Exit 0 when all passed,
# 1 when any failed, 125 when the rig itself failed (B does not see A's bluetoothctl advertisement:
# bluez-rig-selfcheck.sh), so the caller may boot again. With RIG_EATT=1 (the rig's EATT
# setting) every name gets " [EATT]". --logs DIR: copy every command's output and the sim's log
# there at the end (e.g. a folder under /host). DFU_ARGS (environment) is added to every dfu scan,
# info and flash command, e.g. DFU_ARGS=--verbose; DBUS_MONITOR=1 records the system bus
# (dbus-monitor) into dbus-monitor.log. --smpclient DIR: where scripts/test-bluez.sh put smpclient
# for the smpclient scenario (DIR/pythonpath names its site-packages, or DIR/skip says why there is
# none: the scenario then prints SKIP). Needs RIG_HCI_A/B and RIG_ADDR_A/B from the rig.
set -u

DFU=.build/test-bluez/dfu
ONLY="" SKIP="" KEEP_LOGS="" SMPCLIENT=""
while [ $# -gt 0 ]; do
    case $1 in
        --only) ONLY=",${2:?--only needs names},"; shift 2 ;;
        --only=*) ONLY=",${1#--only=},"; shift ;;
        --skip) SKIP=",${2:?--skip needs names},"; shift 2 ;;
        --skip=*) SKIP=",${1#--skip=},"; shift ;;
        --logs) KEEP_LOGS=${2:?--logs needs a folder}; shift 2 ;;
        --smpclient) SMPCLIENT=${2:?--smpclient needs a folder}; shift 2 ;;
        -*) echo "bluez-rig-scenarios: unknown option $1" >&2; exit 2 ;;
        *) DFU=$1; shift ;;
    esac
done
: "${RIG_HCI_A:?run inside the rig}" "${RIG_HCI_B:?}" "${RIG_ADDR_A:?}" "${RIG_ADDR_B:?}"
here=$(cd "$(dirname "$0")" && pwd)
LOGS=/tmp/scenarios
mkdir -p "$LOGS"
export SELFCHECK_LOGS=$LOGS
# shellcheck source=bluez-rig-selfcheck.sh  # its functions: watch_*, remove_a_from_b, wait_b_discovering
. "$here/bluez-rig-selfcheck.sh"

# The sim runs 1.0.0 and trusts the sample ECDSA key; the image is the 1.1.0 sample signed with it
# (firmware-samples/expected.tsv). The link-kill scenario needs an upload long enough to interrupt
# by hand: the 512 KiB sample, with a slot that holds it.
SAMPLES=firmware-samples
KEY=$SAMPLES/keys/TEST-ONLY-ecdsa-p256.pub.pem
IMAGE=$SAMPLES/images/blinky-ecdsa-p256-1.1.0.signed.bin
BIG_IMAGE=$SAMPLES/images/bench-512k-ecdsa-p256-1.1.0.signed.bin
OLD_VERSION=1.0.0
expected_version() {  # image -> version expected.tsv gives it with $KEY, e.g. 1.1.0+0
    awk -F '\t' -v f="images/$(basename "$1")" -v k="${KEY#"$SAMPLES"/}" \
        '$1 == f && $2 == k && $3 == "OK" { print $4; exit }' "$SAMPLES/expected.tsv"
}
NEW_VERSION=$(expected_version "$IMAGE")
GUARD=150            # seconds: a dfu command that runs longer than this hangs
SIM_NAME=dfu-rig-sim   # what the sim advertises (--name), and what flash-by-name asks for
SIM_ARGS=(--version "$OLD_VERSION" --key "$KEY" --name "$SIM_NAME")

tag=""; [ "${RIG_EATT:-0}" = 1 ] && tag=" [EATT]"
passed=0 failed=0 skipped=0
skip() { echo "SKIP $1$tag: $2"; skipped=$((skipped + 1)); }
pass() { echo "PASS $1$tag${2:+ ($2)}"; passed=$((passed + 1)); }
fail() {  # name why [file...]: the files' last lines follow, indented
    local name=$1 why=$2 f; shift 2
    echo "FAIL $name$tag: $why"; failed=$((failed + 1))
    for f in "$@"; do
        [ -s "$f" ] || continue
        echo "    --- ${f#"$LOGS"/} (last lines)"
        tail -n 12 "$f" | sed 's/\x1b\[[0-9;]*[a-zA-Z]//g; s/^/    | /'
    done
}
wanted() { [[ $SKIP != *",$1,"* ]] && { [ -z "$ONLY" ] || [[ $ONLY == *",$1,"* ]]; }; }

# dfu scan prints addresses in full (it is how a user learns them)
shows_a() { grep -i -F -e "$RIG_ADDR_A" "$@"; }

# run NAME CMD...: run a dfu command with a hang guard; output in $LOGS/NAME.out and .err, status in $rc
run() {
    local name=$1; shift
    echo "\$ dfu ${*:2}" > "$LOGS/$name.cmd"
    # shellcheck disable=SC2086  # DFU_ARGS: words to add, as given
    timeout -k 5 "$GUARD" "$@" ${DFU_ARGS:-} > "$LOGS/$name.out" 2> "$LOGS/$name.err" < /dev/null
    rc=$?
}
hung() { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; }

# --- the virtual device on A ---------------------------------------------------------------------
sim_pid="" sim_log="" sim_count=0
sim_start() {  # ARGS...: status 1 when dfu sim ended within its first seconds (its log says why)
    sim_count=$((sim_count + 1))
    sim_log=$LOGS/sim-$sim_count.log
    echo "\$ dfu sim --serve bluez:$RIG_HCI_A $*" > "$sim_log"
    "$DFU" sim --serve "bluez:$RIG_HCI_A" "$@" >> "$sim_log" 2>&1 < /dev/null &
    sim_pid=$!
    # ready when it says it serves (as over UDP); a sim that stays up without saying so is let be
    local i
    for i in $(seq 100); do
        kill -0 "$sim_pid" 2>/dev/null || { wait "$sim_pid"; echo "(exit $?)" >> "$sim_log"; sim_pid=""; return 1; }
        grep -q 'serving' "$sim_log" && return 0
        sleep 0.2
    done
    return 0
}
sim_stop() {  # SIGINT, as a user stops it; the advertisement and GATT application go with it
    [ -n "$sim_pid" ] || return 0
    kill -INT "$sim_pid" 2>/dev/null
    local i
    for i in $(seq 50); do kill -0 "$sim_pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$sim_pid" 2>/dev/null
    wait "$sim_pid" 2>/dev/null
    sim_pid=""
}
monitor_pid=""
if [ "${DBUS_MONITOR:-0}" = 1 ]; then
    dbus-monitor --system > "$LOGS/dbus-monitor.log" 2>&1 &
    monitor_pid=$!
fi
# The kernel's whole log goes with them: the rig boots with `quiet`, so console.log lacks what a
# process's crash prints (a segfault is KERN_INFO); test-bluez.sh reads it when a boot fails.
keep_logs() {
    dmesg > "$LOGS/dmesg.txt" 2>&1 || true
    [ -z "$KEEP_LOGS" ] || { mkdir -p "$KEEP_LOGS" && cp -r "$LOGS"/. "$KEEP_LOGS"/; }
}
trap 'sim_stop; [ -z "$monitor_pid" ] || kill "$monitor_pid" 2>/dev/null; keep_logs' EXIT

# flash_facts FILE: the facts of a `dfu flash --json` output as shell assignments (fl_*)
flash_facts() {
    python3 - "$1" <<'EOF'
import json, shlex, sys
facts = dict(bad_lines=0, result_exit="", result_version="", result_error="", rebooting=0,
             resumed_offset=0, progress_lines=0, first_progress=-1, last_progress=-1, total=0,
             version="", confirmed=0, failure_checks="", transfer_started=0)
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if not line.strip():
        continue
    try:
        e = json.loads(line)
    except ValueError:
        facts["bad_lines"] += 1
        continue
    kind = e.get("event")
    if kind == "result":
        facts["result_exit"] = e.get("exit_code", "")
        facts["result_version"] = e.get("version") or ""
        facts["result_error"] = e.get("error") or ""
        facts["failure_checks"] = " ".join(f.get("check", "?") for f in e.get("failures") or [])
    elif kind == "rebooting":
        facts["rebooting"] = 1
    elif kind == "resumed":
        facts["resumed_offset"] = max(facts["resumed_offset"], int(e.get("offset") or 0))
    elif kind == "progress":
        facts["progress_lines"] += 1
        if facts["first_progress"] < 0:
            facts["first_progress"] = int(e.get("bytes") or 0)
        facts["last_progress"] = int(e.get("bytes") or 0)
        facts["total"] = int(e.get("total") or 0)
    elif kind == "version":
        facts["version"] = e.get("version") or ""
        facts["confirmed"] = 1 if e.get("confirmed") else 0
    elif kind == "firmware":  # Nordic: what the bootloader activated, the revision the app reports
        facts["version"] = e.get("firmware_revision") or ""
    elif kind == "stage" and e.get("stage") == "transfer" and e.get("status") == "started":
        facts["transfer_started"] = 1
for k, v in facts.items():
    print(f"fl_{k}={shlex.quote(str(v))}")
EOF
}

# flash_ok NAME: a whole update in $LOGS/NAME.out: exit 0, reboot, the new version running, confirmed
flash_ok_why=""
flash_ok() {
    eval "$(flash_facts "$LOGS/$1.out")"
    flash_ok_why=""
    if hung; then flash_ok_why="no result within ${GUARD}s (hang guard)"
    elif [ "$rc" -ne 0 ]; then flash_ok_why="exit $rc: ${fl_result_error:-no result line}"
    elif [ "$fl_bad_lines" -ne 0 ]; then flash_ok_why="$fl_bad_lines lines of --json output are not JSON"
    elif [ "$fl_rebooting" -ne 1 ]; then flash_ok_why="no rebooting event"
    elif [ "$fl_version" != "$NEW_VERSION" ] || [ "$fl_confirmed" -ne 1 ]; then
        flash_ok_why="after the reboot the device reports '${fl_version}' (confirmed: $fl_confirmed), expected $NEW_VERSION confirmed"
    elif [ "$fl_result_version" != "$NEW_VERSION" ]; then flash_ok_why="result version '$fl_result_version', expected $NEW_VERSION"
    fi
    [ -z "$flash_ok_why" ]
}

flash_args=(--adapter "$RIG_HCI_B" --key "$KEY" --json)

# run_fresh NAME CMD...: CMD against a new sim started with "${fresh_sim[@]}". The old sim is
# stopped and B forgets A; CMD starts; the sim starts once B discovers (CMD looking for it) or
# after 5 s. So A's advertising begins while B listens, as a real advertiser that repeats would be
# heard: the rig reports an advertiser once, and that report is lost when it comes with the start
# of B's scan (bluez-rig-selfcheck.sh header). Output and $rc as run; $sim_started 0 when the sim
# ended at start.
fresh_sim=()
run_fresh() {
    local name=$1 pid; shift
    sim_stop
    remove_a_from_b
    echo "\$ dfu ${*:2}" > "$LOGS/$name.cmd"
    # shellcheck disable=SC2086  # DFU_ARGS: words to add, as given
    timeout -k 5 "$GUARD" "$@" ${DFU_ARGS:-} > "$LOGS/$name.out" 2> "$LOGS/$name.err" < /dev/null &
    pid=$!
    wait_b_discovering 5
    sim_started=1
    sim_start "${fresh_sim[@]}" || sim_started=0
    wait "$pid"
    rc=$?
}
# cut_link_when NAME DIVISOR: in the background, once NAME's --json progress shows a DIVISORth of
# the total acknowledged, A's controller drops the link to B (btmgmt, behind bluetoothd's back, as
# a device going out of range) and $LOGS/NAME.cut says where. cut_link_done stops the watcher.
cut_link_when() {
    local name=$1 divisor=$2
    rm -f "$LOGS/$name.cut"
    ( for i in $(seq 2400); do
          b=$(grep '"event":"progress"' "$LOGS/$name.out" 2>/dev/null | tail -n 1 | sed -n 's/.*"bytes":\([0-9]*\).*"total":\([0-9]*\).*/\1 \2/p')
          if [ -n "$b" ] && [ "${b% *}" -ge $(( ${b#* } / divisor )) ]; then
              echo "at ${b% *} of ${b#* }" > "$LOGS/$name.cut"
              # btmgmt needs an open standard input to act (reference §8)
              sleep 3 | btmgmt --index "${RIG_HCI_A#hci}" disconnect -t 1 "$RIG_ADDR_B" > "$LOGS/$name.btmgmt" 2>&1
              exit 0
          fi
          sleep 0.05
      done ) &
    cut_watcher=$! cut_name=$name
}
cut_link_done() {
    [ -s "$LOGS/$cut_name.cut" ] || kill "$cut_watcher" 2>/dev/null
    wait "$cut_watcher" 2>/dev/null
}
# sim_failed NAME: the scenario fails when its sim ended at start (status 0 then)
sim_failed() {
    [ "$sim_started" = 0 ] || return 1
    fail "$1" "dfu sim --serve bluez:$RIG_HCI_A ${fresh_sim[*]} ended at start" "$sim_log" "$LOGS/$1.out"
}

# --- 0. the rig, and the sim's advertisement ----------------------------------------------------
echo "rig: A=$RIG_HCI_A $RIG_ADDR_A  B=$RIG_HCI_B $RIG_ADDR_B${RIG_EATT:+  RIG_EATT=$RIG_EATT}; dfu $("$DFU" --version 2>&1)"
# B must hear A advertise (bluetoothctl on both sides, no dfu): else the boot is unusable, exit 125
bash "$here/bluez-rig-selfcheck.sh" || exit 125
# The same check with dfu sim as the advertiser: what fails now is dfu's
watch_start
if ! sim_start "${SIM_ARGS[@]}"; then
    watch_stop
    fail sim-advertises "dfu sim --serve bluez:$RIG_HCI_A ended at start" "$sim_log"
    echo "bluez-rig-scenarios: $passed passed, $failed failed$tag (nothing else can run without the sim)"
    exit 1
fi
if watch_wait 15; then
    pass sim-advertises "$RIG_HCI_B saw it within 15 s, named $(property "$(a_on_b_path)" org.bluez.Device1 Name | sed 's/^string //')"
else
    fail sim-advertises "$RIG_HCI_B, scanning before dfu sim started, did not see it within 15 s (bluetoothctl's advertisement it saw)" \
        "$sim_log" "$LOGS/selfcheck-scan.log"
fi
watch_stop

# --- 1. scan -------------------------------------------------------------------------------------
fresh_sim=("${SIM_ARGS[@]}")
if wanted scan; then
    run_fresh scan "$DFU" scan --timeout 10 --adapter "$RIG_HCI_B"
    if sim_failed scan; then :
    elif hung; then fail scan "no end within ${GUARD}s (hang guard)" "$LOGS/scan.out" "$LOGS/scan.err"
    elif [ "$rc" -ne 0 ]; then fail scan "exit $rc" "$LOGS/scan.out" "$LOGS/scan.err"
    elif ! shows_a "$LOGS/scan.out" | grep -q 'SMP'; then
        fail scan "no line with A's address ($RIG_ADDR_A) and SMP" "$LOGS/scan.out" "$LOGS/scan.err"
    else pass scan "$(shows_a "$LOGS/scan.out" | head -n 1 | tr -s ' ')"
    fi
fi

if wanted scan-json; then
    run_fresh scan-json "$DFU" scan --timeout 10 --adapter "$RIG_HCI_B" --json
    # every line JSON; a device object with A's address, protocol smp and the sim's name; result ok
    verdict=$(python3 - "$LOGS/scan-json.out" "$RIG_ADDR_A" "$SIM_NAME" <<'EOF2'
import json, sys
path, full, name = sys.argv[1], sys.argv[2].upper(), sys.argv[3]
found, bad = None, 0
for line in open(path, encoding="utf-8", errors="replace"):
    if not line.strip():
        continue
    try:
        e = json.loads(line)
    except ValueError:
        bad += 1
        continue
    if not isinstance(e, dict):
        continue
    if e.get("event") == "device" and str(e.get("address")).upper() == full \
            and "SMP" in str(e.get("protocol")).upper():
        found = e
    if e.get("event") == "result" and e.get("ok") is not True:
        bad += 1
if bad:
    print(f"bad {bad} lines are not JSON or a failed result")
elif found is None:
    print("bad no device object with A's address and protocol smp")
elif found.get("name") != name:
    print(f"bad A's name is {found.get('name')!r}, the sim advertises {name!r}")
else:
    print("ok", found.get("name"), json.dumps(found.get("rssi")))
EOF2
)
    if sim_failed scan-json; then :
    elif hung; then fail scan-json "no end within ${GUARD}s (hang guard)" "$LOGS/scan-json.out" "$LOGS/scan-json.err"
    elif [ "$rc" -ne 0 ]; then fail scan-json "exit $rc" "$LOGS/scan-json.out" "$LOGS/scan-json.err"
    elif [[ $verdict != ok* ]]; then fail scan-json "${verdict#bad }" "$LOGS/scan-json.out" "$LOGS/scan-json.err"
    else read -r _ name rssi <<< "$verdict"; pass scan-json "name $name, RSSI $rssi"
    fi
fi

# --- 2. info ---------------------------------------------------------------------------------------
# info_judge NAME VERSION: the text output shows slot 0 running VERSION and the battery (80 %, the sim's default)
info_judge() {
    if hung; then fail "$1" "no end within ${GUARD}s (hang guard)" "$LOGS/$1.out" "$LOGS/$1.err"
    elif [ "$rc" -ne 0 ]; then fail "$1" "exit $rc" "$LOGS/$1.out" "$LOGS/$1.err"
    elif ! grep -E '^slot 0 ' "$LOGS/$1.out" | grep -F "$2" | grep -q 'running'; then
        fail "$1" "no 'slot 0 ... $2 ... running' line" "$LOGS/$1.out" "$LOGS/$1.err"
    elif ! grep -qE '^battery +80 %' "$LOGS/$1.out"; then
        fail "$1" "no 'battery 80 %' line" "$LOGS/$1.out" "$LOGS/$1.err"
    else pass "$1" "$(grep -E '^slot 0 ' "$LOGS/$1.out" | head -n 1 | tr -s ' '), battery 80 %"
    fi
}
# info_json_judge NAME VERSION: dfu info --json gave running_version VERSION and battery 80
info_json_judge() {
    local verdict
    verdict=$(python3 - "$LOGS/$1.out" "$2" <<'EOF2'
import json, sys
try:
    lines = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8", errors="replace") if l.strip()]
except ValueError as e:
    sys.exit(print("not JSON:", e))
result = [e for e in lines if isinstance(e, dict) and e.get("event") == "result"]
if len(result) != 1:
    sys.exit(print(f"{len(result)} result objects"))
r = result[0]
version = str(r.get("running_version"))
if version != sys.argv[2] and not version.startswith(sys.argv[2] + "+"):
    sys.exit(print(f"running_version {version}, expected {sys.argv[2]}"))
if r.get("battery") != 80:
    sys.exit(print(f"battery {r.get('battery')}, expected 80"))
print("ok", version)
EOF2
)
    if hung; then fail "$1" "no end within ${GUARD}s (hang guard)" "$LOGS/$1.out" "$LOGS/$1.err"
    elif [ "$rc" -ne 0 ]; then fail "$1" "exit $rc" "$LOGS/$1.out" "$LOGS/$1.err"
    elif [[ $verdict != ok* ]]; then fail "$1" "$verdict" "$LOGS/$1.out" "$LOGS/$1.err"
    else pass "$1" "running_version ${verdict#ok }, battery 80"
    fi
}
if wanted info; then
    run_fresh info "$DFU" info --device "$RIG_ADDR_A" --adapter "$RIG_HCI_B"
    sim_failed info || info_judge info "$OLD_VERSION"
fi

# --- 3. a whole update by address ------------------------------------------------------------------
eatt_watch_pid=""
if [ -n "$tag" ]; then
    # evidence that EATT is in use: connected L2CAP channels (state 1) on the EATT PSM (0x27 = 39)
    # during the update; debugfs lines: src (type) dst (type) state psm scid dcid imtu omtu sec mode
    ( max=0; while :; do n=$(awk '$5 == 1 && $6 == 39' /sys/kernel/debug/bluetooth/l2cap 2>/dev/null | wc -l)
        [ "$n" -gt "$max" ] && { max=$n; echo "$max" > "$LOGS/eatt-channels"; }; sleep 0.2; done ) &
    eatt_watch_pid=$!
fi
if wanted flash; then
    run_fresh flash "$DFU" flash "$IMAGE" --device "$RIG_ADDR_A" "${flash_args[@]}"
    if sim_failed flash; then :
    elif flash_ok flash; then pass flash "$(basename "$IMAGE"): uploaded, rebooted, $fl_version confirmed"
    else fail flash "$flash_ok_why" "$LOGS/flash.out" "$LOGS/flash.err" "$sim_log"
    fi
    if [ -n "$eatt_watch_pid" ]; then
        kill "$eatt_watch_pid" 2>/dev/null; wait "$eatt_watch_pid" 2>/dev/null
        echo "EATT: up to $(cat "$LOGS/eatt-channels" 2>/dev/null || echo 0) connected L2CAP channels on PSM 0x27 (both ends) seen during the update"
    fi
    if wanted info; then
        # the same sim, which now runs what was flashed (B still knows A: it connects at once)
        run info-after-flash "$DFU" info --device "$RIG_ADDR_A" --adapter "$RIG_HCI_B" --json
        info_json_judge info-after-flash "${NEW_VERSION%+0}"
    fi
fi

# --- 4. refused for low battery ----------------------------------------------------------------------
if wanted low-battery; then
    fresh_sim=("${SIM_ARGS[@]}" --battery 10)
    run_fresh low-battery "$DFU" flash "$IMAGE" --device "$RIG_ADDR_A" "${flash_args[@]}"
    eval "$(flash_facts "$LOGS/low-battery.out")"
    if sim_failed low-battery; then :
    elif hung; then fail low-battery "no result within ${GUARD}s (hang guard)" "$LOGS/low-battery.out" "$sim_log"
    elif [ "$rc" -ne 4 ]; then fail low-battery "exit $rc, expected 4: ${fl_result_error}" "$LOGS/low-battery.out" "$sim_log"
    elif [[ " $fl_failure_checks " != *" battery "* ]]; then
        fail low-battery "exit 4 but the failed checks are '$fl_failure_checks', not battery" "$LOGS/low-battery.out"
    elif [ "$fl_transfer_started" -ne 0 ] || [ "$fl_progress_lines" -ne 0 ] || grep -qi 'upload started' "$sim_log"; then
        fail low-battery "refused, but the upload had begun" "$LOGS/low-battery.out" "$sim_log"
    else pass low-battery "exit 4, battery check failed, nothing sent"
    fi
fi

# --- 5. a whole update by name ----------------------------------------------------------------------
if wanted flash-by-name; then
    fresh_sim=("${SIM_ARGS[@]}")
    run_fresh flash-by-name "$DFU" flash "$IMAGE" --device "name:$SIM_NAME" "${flash_args[@]}"
    if sim_failed flash-by-name; then :
    elif flash_ok flash-by-name; then pass flash-by-name "name:$SIM_NAME, $fl_version confirmed"
    else fail flash-by-name "$flash_ok_why" "$LOGS/flash-by-name.out" "$LOGS/flash-by-name.err" "$sim_log"
    fi
fi

# resumed_judge NAME CMD...: the run in $LOGS/NAME.out was cut; it passes when it reconnected and
# resumed by itself (a resumed event at a non-zero offset, and the upload finished), or when it
# exited 6 and CMD run again (same sim) exits 0 having resumed (a resumed event, or its first
# progress past a fifth of the image). $cut describes the cut; with $expect_version set, the run
# that ends must report that version running after the reboot.
resumed_judge() {
    local name=$1; shift
    eval "$(flash_facts "$LOGS/$name.out")"
    if [ "$rc" -eq 0 ] && [ -n "$expect_version" ] && [ "$fl_version" != "$expect_version" ]; then
        fail "$name" "${cut}exit 0, but after the reboot the device reports '$fl_version', expected $expect_version" "$LOGS/$name.out"
    elif [ "$rc" -eq 0 ] && [ "$fl_resumed_offset" -gt 0 ] && [ "$fl_last_progress" -eq "$fl_total" ]; then
        pass "$name" "${cut}the same run reconnected and resumed at $fl_resumed_offset of $fl_total"
    elif [ "$rc" -eq 0 ]; then
        fail "$name" "${cut}exit 0 without a resumed event: the link was not cut, or the cut went unnoticed" "$LOGS/$name.out" "$sim_log"
    elif [ "$rc" -eq 6 ]; then
        run "$name-again" "$@"
        eval "$(flash_facts "$LOGS/$name-again.out")"
        if [ "$rc" -ne 0 ]; then
            fail "$name" "${cut}exit 6, then the second run exited $rc: ${fl_result_error}" "$LOGS/$name.out" "$LOGS/$name-again.out" "$sim_log"
        elif [ "$fl_resumed_offset" -le 0 ] && [ "$fl_first_progress" -lt $((fl_total / 5)) ]; then
            fail "$name" "${cut}the second run started over (first progress $fl_first_progress of $fl_total)" "$LOGS/$name-again.out"
        elif [ -n "$expect_version" ] && [ "$fl_version" != "$expect_version" ]; then
            fail "$name" "${cut}exit 6, then exit 0, but the device reports '$fl_version', expected $expect_version" "$LOGS/$name-again.out"
        else pass "$name" "${cut}exit 6, the same command again resumed at $((fl_resumed_offset > fl_first_progress ? fl_resumed_offset : fl_first_progress)) of $fl_total"
        fi
    else
        fail "$name" "${cut}exit $rc (expected 0 after a reconnect, or 6): ${fl_result_error}" "$LOGS/$name.out" "$LOGS/$name.err" "$sim_log"
    fi
}

# --- 6. cut by the device dropping the link (sim fault) ---------------------------------------------
if wanted link-drop; then
    fresh_sim=("${SIM_ARGS[@]}" --fault 'disconnect@40%')
    cmd=("$DFU" flash "$IMAGE" --device "$RIG_ADDR_A" "${flash_args[@]}")
    run_fresh link-drop "${cmd[@]}"
    if ! sim_failed link-drop; then
        cut="" expect_version=$NEW_VERSION
        resumed_judge link-drop "${cmd[@]}"
    fi
fi

# --- 7. cut by a link loss at the controller (btmgmt, behind BlueZ's back) --------------------------
# The 512 KiB sample, upload only (a swap of 512 KiB on the modelled flash takes about a minute):
# A's controller disconnects B once a quarter is acknowledged, as a device that goes out of range.
if wanted link-kill; then
    fresh_sim=("${SIM_ARGS[@]}" --slot-size 1M)
    cmd=("$DFU" flash "$BIG_IMAGE" --device "$RIG_ADDR_A" --mode upload-only "${flash_args[@]}")
    cut_link_when link-kill 4
    run_fresh link-kill "${cmd[@]}"
    cut_link_done
    if sim_failed link-kill; then :
    elif [ ! -s "$LOGS/link-kill.cut" ]; then
        eval "$(flash_facts "$LOGS/link-kill.out")"
        fail link-kill "the link was never cut: the upload did not reach a quarter (exit $rc: ${fl_result_error})" "$LOGS/link-kill.out" "$sim_log"
    else
        cut="btmgmt disconnect $(cat "$LOGS/link-kill.cut"); " expect_version=""
        resumed_judge link-kill "${cmd[@]}"
    fi
fi

# --- 8. Ctrl-C during an upload: dfu closes the link before exiting 130, and the same command resumes --
# bluetoothd keeps an LE link whose client is gone, so dfu must Disconnect on its way out.
if wanted interrupt; then
    fresh_sim=("${SIM_ARGS[@]}" --slot-size 1M)
    cmd=("$DFU" flash "$BIG_IMAGE" --device "$RIG_ADDR_A" --mode upload-only "${flash_args[@]}")
    rm -f "$LOGS/interrupt.cut"
    ( for i in $(seq 1200); do
          b=$(grep '"event":"progress"' "$LOGS/interrupt.out" 2>/dev/null | tail -n 1 | sed -n 's/.*"bytes":\([0-9]*\).*"total":\([0-9]*\).*/\1 \2/p')
          if [ -n "$b" ] && [ "${b% *}" -ge $(( ${b#* } / 5 )) ]; then
              echo "at ${b% *} of ${b#* }" > "$LOGS/interrupt.cut"
              # dfu itself, not the timeout(1) around it (which would pass on a second SIGINT)
              pkill -INT -f "^$DFU flash $BIG_IMAGE"
              exit 0
          fi
          sleep 0.1
      done ) &
    killer=$!
    run_fresh interrupt "${cmd[@]}"
    [ -s "$LOGS/interrupt.cut" ] || kill "$killer" 2>/dev/null
    wait "$killer" 2>/dev/null
    device_path=/org/bluez/$RIG_HCI_B/dev_${RIG_ADDR_A//:/_}
    connected=$(dbus-send --system --print-reply --dest=org.bluez "$device_path" org.freedesktop.DBus.Properties.Get \
                    string:org.bluez.Device1 string:Connected 2>&1 | grep -o 'boolean [a-z]*' || true)
    if sim_failed interrupt; then :
    elif [ ! -s "$LOGS/interrupt.cut" ]; then
        fail interrupt "the upload never reached a fifth, so it was not interrupted (exit $rc)" "$LOGS/interrupt.out" "$sim_log"
    elif [ "$rc" -ne 130 ] || ! grep -q 'dfu: interrupted' "$LOGS/interrupt.err"; then
        fail interrupt "SIGINT $(cat "$LOGS/interrupt.cut"): exit $rc, expected 130 and 'dfu: interrupted'" "$LOGS/interrupt.err"
    elif grep -q 'did not close in time' "$LOGS/interrupt.err"; then
        fail interrupt "the connection did not close within dfu's limit" "$LOGS/interrupt.err"
    elif [ "$connected" != "boolean false" ]; then
        fail interrupt "after exit 130 bluetoothd reports Connected '$connected' for A: dfu left the link up" "$LOGS/interrupt.err"
    else
        run interrupt-again "${cmd[@]}"
        eval "$(flash_facts "$LOGS/interrupt-again.out")"
        if [ "$rc" -ne 0 ]; then
            fail interrupt "interrupted cleanly, then the same command exited $rc: ${fl_result_error}" "$LOGS/interrupt-again.out" "$sim_log"
        elif [ "$fl_resumed_offset" -le 0 ] && [ "$fl_first_progress" -lt $((fl_total / 5)) ]; then
            fail interrupt "interrupted cleanly, but the second run started over (first progress $fl_first_progress of $fl_total)" "$LOGS/interrupt-again.out"
        else
            pass interrupt "SIGINT $(cat "$LOGS/interrupt.cut"): exit 130 with the link closed; the same command resumed"
        fi
    fi
fi

# --- 9. smpclient over BLE: a client we did not write updates the sim ------------------------------
# smpclient 7.3.0 on bleak, on B (scripts/bluez-rig-smpclient.py): a long echo (a reply of three
# notifications), upload, test, reset, reconnect, confirm. The sim logs every packet (--verbose), so
# the PASS line can say how large the writes and notifications were at the MTU bluetoothd chose.
# scripts/test-bluez.sh runs it in a boot of its own. bleak's connect attempts fail on the rig for
# two reasons below smpclient (a scan that misses the advertiser, and bluetoothd 5.66 never
# signalling Connected=true when its ATT socket connects before the kernel's Device Connected event:
# connect() in bluez-rig-smpclient.py); three failures in a row once used up a 90 s budget
# (2026-12-04, and the same signature 2026-12-02), so each connect gets 180 s and the PASS line
# counts the attempts that were tried again.
if wanted smpclient; then
    if [ -n "$SMPCLIENT" ] && [ -s "$SMPCLIENT/pythonpath" ]; then
        image_hash=$(awk -F '\t' -v f="images/$(basename "$IMAGE")" '$1 == f && $3 == "OK" { print $5; exit }' "$SAMPLES/expected.tsv")
        fresh_sim=("${SIM_ARGS[@]}" --verbose)
        saved_guard=$GUARD GUARD=480
        DFU_ARGS="" run_fresh smpclient env PYTHONPATH="$(cat "$SMPCLIENT/pythonpath")" BLEAK_ADAPTER="$RIG_HCI_B" \
            python3 "$here/bluez-rig-smpclient.py" "$RIG_ADDR_A" "$IMAGE" "$image_hash"
        GUARD=$saved_guard
        # the sim's own account: the MTU line, the largest write and notification it saw
        mtu_line=$(grep -m 1 'ATT MTU' "$sim_log" | sed 's/^dfu sim: //')
        largest() { sed -nE "s/^(dfu: )?sim: $1 ([0-9]+) bytes.*/\2/p" "$sim_log" | sort -n | tail -n 1; }
        sizes="largest write $(largest '←') B, notification $(largest '→') B"
        # bluez-rig-smpclient.py says each failed connect attempt on stderr (its connect() says why they happen)
        retried=$(grep -c '^connect attempt' "$LOGS/smpclient.err" 2>/dev/null || true)
        [ "${retried:-0}" -gt 0 ] && sizes="$sizes; $retried connect attempts failed and were tried again"
        if sim_failed smpclient; then :
        elif hung; then fail smpclient "no end within 480 s (hang guard)" "$LOGS/smpclient.out" "$sim_log"
        elif [ "$rc" -ne 0 ]; then fail smpclient "exit $rc: $(grep -m 1 '^FAIL' "$LOGS/smpclient.out")" "$LOGS/smpclient.out" "$LOGS/smpclient.err" "$sim_log"
        else pass smpclient "$(tail -n 1 "$LOGS/smpclient.out" | sed 's/^smpclient over BLE: //'); ${mtu_line%%, notifications*}; $sizes"
        fi
    else
        skip smpclient "$(cat "$SMPCLIENT/skip" 2>/dev/null || echo "no smpclient venv: scripts/test-bluez.sh builds it (--smpclient)")"
    fi
fi

# --- 10. Nordic Secure DFU: the nRF52 sim, buttonless entry and its bootloader ----------------------
# shellcheck source=bluez-rig-nordic.sh
. "$here/bluez-rig-nordic.sh"

# --- 11. devices that require an authenticated link (pairing) ---------------------------------------
# shellcheck source=bluez-rig-secure.sh
. "$here/bluez-rig-secure.sh"

# --- 12. dfu batch over three more controllers -------------------------------------------------------
# shellcheck source=bluez-rig-batch.sh
. "$here/bluez-rig-batch.sh"

sim_stop
summary="$passed passed, $failed failed$tag"
[ "$skipped" -eq 0 ] || summary="$summary, $skipped skipped"
echo "bluez-rig-scenarios: $summary"
[ "$failed" -eq 0 ]

#!/bin/bash
# Rig self-check, run inside the BlueZ rig (../shared/rig; docs/test-bluez.md): does controller B see
# controller A advertise? About one boot in eleven the rig's central never sees an advertisement
# (reference §8); this tells such a boot apart from a failing tool. Only BlueZ's own bluetoothctl
# and dbus-send are used, no dfu code.
#
#   bluez-rig-selfcheck.sh              advertise on A with bluetoothctl, watch from B for 15 s:
#                                       exit 0 when B saw A, 125 (the rig failed) when not
#   bluez-rig-selfcheck.sh --watch [S]  only watch from B for S seconds (default 15), something else
#                                       advertises on A: exit 0 when B saw A, 1 when not
#
# Either way A's Device1 object on B is removed afterwards, so what runs next starts with B knowing
# nothing about A. Needs RIG_HCI_B, RIG_ADDR_A, RIG_ADDR_B (set by the rig). Logs: /tmp/selfcheck-*.log.
set -u

: "${RIG_HCI_B:?run inside the rig}" "${RIG_ADDR_A:?run inside the rig}" "${RIG_ADDR_B:?run inside the rig}"
SELFCHECK_LOGS=${SELFCHECK_LOGS:-/tmp}

# bluetoothctl driven through a FIFO: it reads commands from standard input as they come, and stays
# (with its discovery session or advertisement) until "quit" or the end of its input.
# ctl_start NAME -> sets ctl_fd_NAME and ctl_pid_NAME
ctl_start() {
    local name=$1 fifo=$SELFCHECK_LOGS/selfcheck-$1.fifo fd
    rm -f "$fifo"; mkfifo "$fifo"
    bluetoothctl < "$fifo" > "$SELFCHECK_LOGS/selfcheck-$name.log" 2>&1 &
    printf -v "ctl_pid_$name" %s $!
    exec {fd}> "$fifo"
    printf -v "ctl_fd_$name" %s "$fd"
    rm -f "$fifo"
    # bluetoothctl lists the controllers before it reads input; give it a moment so "select" finds them
    sleep 1
}
ctl_send() { local fd_var="ctl_fd_$1"; shift; printf '%s\n' "$@" >&"${!fd_var}"; }
ctl_stop() {
    local fd_var="ctl_fd_$1" pid_var="ctl_pid_$1" i
    printf '%s\n' quit >&"${!fd_var}" 2>/dev/null
    eval "exec ${!fd_var}>&-"
    for i in $(seq 50); do kill -0 "${!pid_var}" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "${!pid_var}" 2>/dev/null
    wait "${!pid_var}" 2>/dev/null
}

# ctl_excerpt NAME LABEL: what bluetoothctl said (events and results, not its help or colours)
ctl_excerpt() {
    sed 's/\x1b\[[0-9;]*[a-zA-Z]//g; s/\r//g' "$SELFCHECK_LOGS/selfcheck-$1.log" \
        | grep -E 'NEW|CHG|DEL|ail|registered|success|started|not available|Invalid|rror' \
        | sed 's/^[^#]*# *//; s/^ *//' | tail -n 15 | sed "s/^/  $2: /"
}

device_path() { echo "/org/bluez/$RIG_HCI_B/dev_${RIG_ADDR_A//:/_}"; }

# True once B has received an advertisement from A in this discovery: BlueZ sets RSSI then.
b_sees_a() {
    dbus-send --system --print-reply --dest=org.bluez "$(device_path)" \
        org.freedesktop.DBus.Properties.Get string:org.bluez.Device1 string:RSSI > /dev/null 2>&1
}

remove_a_from_b() {
    dbus-send --system --print-reply --dest=org.bluez "/org/bluez/$RIG_HCI_B" \
        org.bluez.Adapter1.RemoveDevice "objpath:$(device_path)" > /dev/null 2>&1
}

# watch SECONDS: LE discovery on B until it sees A or the time is up. Status 0 when seen.
# btvirt reports an advertiser once per scan start, at once; when that report reaches the kernel
# before its discovery is under way, it is dropped and B hears nothing more until the scan starts
# again (btmon shows the report before MGMT Start Discovery's reply). So start it again every 4 s.
watch() {
    local seconds=$1 seen=1 end restart
    ctl_start scan
    ctl_send scan "select $RIG_ADDR_B" "menu scan" "transport le" "back" "scan on"
    end=$((SECONDS + seconds)) restart=$((SECONDS + 4))
    while [ $SECONDS -lt $end ]; do
        if b_sees_a; then seen=0; break; fi
        if [ $SECONDS -ge $restart ]; then
            ctl_send scan "scan off" "scan on"
            restart=$((SECONDS + 4))
        fi
        sleep 0.25
    done
    ctl_send scan "scan off"
    ctl_stop scan
    remove_a_from_b
    return $seen
}

if [ "${1:-}" = --watch ]; then
    watch "${2:-15}"
    exit $?
fi

ctl_start adv
ctl_send adv "select $RIG_ADDR_A" "menu advertise" "name rig-selfcheck" "back" "advertise on"
if watch 15; then
    rc=0
    echo "rig self-check: $RIG_HCI_B sees $RIG_HCI_A advertise (bluetoothctl)"
else
    rc=125
    echo "rig self-check: $RIG_HCI_B did not see $RIG_HCI_A's bluetoothctl advertisement in 15 s: the rig failed (exit 125)" >&2
    ctl_excerpt adv advertiser >&2
    ctl_excerpt scan scanner >&2
fi
ctl_send adv "advertise off"
sleep 0.5
ctl_stop adv
exit $rc

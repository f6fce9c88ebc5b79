#!/bin/bash
# Rig self-check, run inside the BlueZ rig (../shared/rig; docs/test-bluez.md): can controller B
# see controller A advertise? A boot where it cannot says nothing about dfu; this tells it apart
# from a failing tool. Only BlueZ's own bluetoothctl and dbus-send are used, no dfu code.
#
#   bluez-rig-selfcheck.sh     B scans (bluetoothctl), then A advertises (bluetoothctl): exit 0
#                              when B sees A within 15 s, 125 (the rig failed) when not
#   . bluez-rig-selfcheck.sh   (sourced) only defines the functions below, for the scenario script
#
# Why B scans first: btvirt reports an advertiser to a scanner once, at the instant the scan is
# enabled or the advertising is (no repeats, and the controller's duplicate filter is on). A report
# sent with the scan enable can reach the kernel before its discovery is under way (btmon shows it
# before MGMT Start Discovery's reply), and the kernel drops it: that discovery then hears nothing
# at all, which on some boots happens again and again. Advertising that starts while B is already
# discovering is always reported. A real advertiser repeats every interval, so this is the rig's
# artefact. Afterwards A's Device1 object on B is removed, so what runs next starts with B knowing
# nothing of A. Needs RIG_HCI_B, RIG_ADDR_A, RIG_ADDR_B (set by the rig). Logs: $SELFCHECK_LOGS
# (default /tmp)/selfcheck-*.log.
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

a_on_b_path() { echo "/org/bluez/$RIG_HCI_B/dev_${RIG_ADDR_A//:/_}"; }
# property OBJECT INTERFACE NAME: the value as dbus-send prints it ("boolean true", "int16 -60"), or nothing
property() {
    dbus-send --system --print-reply --dest=org.bluez "$1" org.freedesktop.DBus.Properties.Get \
        "string:$2" "string:$3" 2>/dev/null | awk 'NR == 2 { $1 = ""; print substr($0, 2) }'
}
# True once B has received an advertisement from A in this discovery: BlueZ sets RSSI then.
b_sees_a() { [ -n "$(property "$(a_on_b_path)" org.bluez.Device1 RSSI)" ]; }
b_discovering() { [ "$(property "/org/bluez/$RIG_HCI_B" org.bluez.Adapter1 Discovering)" = "boolean true" ]; }
# wait_b_discovering SECONDS: until some client's discovery runs on B (status 1 if it never did)
wait_b_discovering() {
    local end=$((SECONDS + $1))
    until b_discovering; do [ $SECONDS -lt "$end" ] || return 1; sleep 0.2; done
}
remove_a_from_b() {
    dbus-send --system --print-reply --dest=org.bluez "/org/bluez/$RIG_HCI_B" \
        org.bluez.Adapter1.RemoveDevice "objpath:$(a_on_b_path)" > /dev/null 2>&1
}

# watch_start: LE discovery on B (bluetoothctl), returns once it runs
watch_start() {
    ctl_start scan
    ctl_send scan "select $RIG_ADDR_B" "menu scan" "transport le" "back" "scan on"
    wait_b_discovering 10
}
# watch_wait SECONDS: until B has seen A (status 0) or the time is up (1). Starting the scan again
# every 4 s costs nothing and gives the rig's race another chance (see the header).
watch_wait() {
    local end=$((SECONDS + $1)) restart=$((SECONDS + 4))
    while [ $SECONDS -lt $end ]; do
        b_sees_a && return 0
        if [ $SECONDS -ge $restart ]; then
            ctl_send scan "scan off" "scan on"
            restart=$((SECONDS + 4))
        fi
        sleep 0.25
    done
    return 1
}
# watch_stop: end the discovery and forget A on B
watch_stop() {
    ctl_send scan "scan off"
    ctl_stop scan
    remove_a_from_b
}

# Sourced: the functions only.
[ "${BASH_SOURCE[0]}" = "$0" ] || return 0

watch_start
ctl_start adv
ctl_send adv "select $RIG_ADDR_A" "menu advertise" "name rig-selfcheck" "back" "advertise on"
if watch_wait 15; then
    rc=0
    echo "rig self-check: $RIG_HCI_B sees $RIG_HCI_A advertise (bluetoothctl)"
else
    rc=125
    echo "rig self-check: $RIG_HCI_B did not see $RIG_HCI_A's bluetoothctl advertisement in 15 s: the rig failed (exit 125)" >&2
    ctl_excerpt adv advertiser >&2
    ctl_excerpt scan scanner >&2
fi
watch_stop
ctl_send adv "advertise off"
sleep 0.5
ctl_stop adv
exit $rc

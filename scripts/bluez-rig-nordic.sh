#!/bin/bash
# Nordic Secure DFU scenarios of `make test-bluez`, sourced by bluez-rig-scenarios.sh (its
# functions: run, run_fresh, pass, fail, flash_facts, wanted, sim_failed, cut_link_when; its
# variables). The sim
# on A is an nRF52 with the nRF5 SDK's secure bootloader (dfu sim --protocol nordic): its
# application offers buttonless DFU; a buttonless request resets it into the bootloader, which
# answers at the same address as DfuTarg (the rig's controllers cannot change address:
# nordic-secure-dfu.md §10.7); after the last object the new application comes back.
#
#   nordic-scan       scan lists A as a Nordic DFU device with the sim's name
#   nordic-info       info on the application: Nordic Secure DFU, buttonless, version 0.0.1
#   nordic-flash      flash the pc-nrfutil package: buttonless → bootloader → update → the app
#                     reports 0.0.3 (Device Information), over the real bluetoothd
#   nordic-drops      the bootloader itself closes the link right after answering the 2nd data
#                     Create, right after answering the 4th data Execute, and after its 60th Packet
#                     write (dfu sim --drop): dfu takes each for a lost link (also when bluetoothd
#                     fails the next Control Point write with ATT 0x0E before it reports the drop),
#                     reconnects and finishes from what Select reports, in one run
#   nordic-elsewhere  the bootloader comes up on another controller (hci2, dfu sim
#                     --bootloader-adapter), at an address no rule derives from the application's:
#                     dfu names it (buttonless set-name) and finds it by that name
#   nordic-elsewhere-unnamed  the same with an application that cannot name it (--set-name off):
#                     dfu finds it as the only DfuTarg in range, after 5 s at the two addresses
#   nordic-resume-elsewhere  the nordic-elsewhere device, the flash stopped by SIGINT once the
#                     bootloader took data; dfu resume finds the bootloader by the name the journal kept
#   nordic-link-drop  only when named (--only nordic-flash,nordic-link-drop): A's controller drops
#                     the link (btmgmt) during the transfer; dfu reconnects to the bootloader and
#                     finishes the update in the same run. Not in the default set: it passed 5 of 6
#                     times (one over EATT), and once bluetoothd 5.66 segfaulted right after the
#                     cut, taking every later scenario with it.

NORDIC_PACKAGE=$SAMPLES/nordic/app-signed-3.zip
NORDIC_KEY=$SAMPLES/nordic/keys/TEST-ONLY-nordic-p256.pub.pem
NORDIC_VERSION=0.0.3
NORDIC_NAME=dfu-rig-nrf
nordic_sim=(--protocol nordic --name "$NORDIC_NAME")
nordic_args=(--adapter "$RIG_HCI_B" --key "$NORDIC_KEY" --expect-version "$NORDIC_VERSION" --json)

# nordic_ok NAME: exit 0, the new application reported, and the sim saw its bootloader and the new app
nordic_ok_why=""
nordic_ok() {
    eval "$(flash_facts "$LOGS/$1.out")"
    nordic_ok_why=""
    if hung; then nordic_ok_why="no result within ${GUARD}s (hang guard)"
    elif [ "$rc" -ne 0 ]; then nordic_ok_why="exit $rc: ${fl_result_error:-no result line}"
    elif [ "$fl_bad_lines" -ne 0 ]; then nordic_ok_why="$fl_bad_lines lines of --json output are not JSON"
    # the firmware event's firmware_revision, as the application reports it
    elif [ "$fl_version" != "$NORDIC_VERSION" ]; then
        nordic_ok_why="after the update the device reports '${fl_version}', expected $NORDIC_VERSION"
    elif ! grep -q 'in its bootloader as Dfu' "$sim_log"; then nordic_ok_why="the sim never ran its bootloader"
    elif ! grep -q "running application $NORDIC_VERSION" "$sim_log"; then
        nordic_ok_why="the sim does not say it runs application $NORDIC_VERSION"
    fi
    [ -z "$nordic_ok_why" ]
}

if wanted nordic-scan; then
    fresh_sim=("${nordic_sim[@]}")
    run_fresh nordic-scan "$DFU" scan --timeout 10 --adapter "$RIG_HCI_B"
    row=$(shows_a "$LOGS/nordic-scan.out" | head -n 1)
    if sim_failed nordic-scan; then :
    elif [ "$rc" -ne 0 ]; then fail nordic-scan "exit $rc" "$LOGS/nordic-scan.out" "$LOGS/nordic-scan.err" "$sim_log"
    elif [ -z "$row" ] || [[ $row != *"Nordic DFU"* ]] || [[ $row != *"$NORDIC_NAME"* ]]; then
        fail nordic-scan "no row with A's address, $NORDIC_NAME and 'Nordic DFU'" "$LOGS/nordic-scan.out"
    else
        pass nordic-scan "$(echo "$row" | tr -s ' ')"
    fi
fi

if wanted nordic-info; then
    fresh_sim=("${nordic_sim[@]}")
    run_fresh nordic-info "$DFU" info --device "$RIG_ADDR_A" --adapter "$RIG_HCI_B"
    if sim_failed nordic-info; then :
    elif [ "$rc" -ne 0 ]; then fail nordic-info "exit $rc" "$LOGS/nordic-info.out" "$LOGS/nordic-info.err" "$sim_log"
    elif ! grep -qi 'nordic' "$LOGS/nordic-info.out" || ! grep -qi 'buttonless' "$LOGS/nordic-info.out"; then
        fail nordic-info "info does not name Nordic Secure DFU with buttonless entry" "$LOGS/nordic-info.out"
    else
        pass nordic-info "$(grep -i -m 1 'buttonless' "$LOGS/nordic-info.out" | sed 's/^ *//')"
    fi
fi

if wanted nordic-flash; then
    fresh_sim=("${nordic_sim[@]}")
    run_fresh nordic-flash "$DFU" flash "$NORDIC_PACKAGE" --device "$RIG_ADDR_A" "${nordic_args[@]}"
    if sim_failed nordic-flash; then :
    elif ! nordic_ok nordic-flash; then
        fail nordic-flash "$nordic_ok_why" "$LOGS/nordic-flash.out" "$LOGS/nordic-flash.err" "$sim_log"
    else
        took=$(grep -o '"stage":"transfer","status":"finished","duration":[0-9.]*' "$LOGS/nordic-flash.out" \
               | sed 's/.*://' | head -n 1)
        resent=""
        grep -q 'packets lost or out of order' "$LOGS/nordic-flash.out" && resent="; packets resent (reordered)"
        pass nordic-flash "buttonless → $(grep -o "in its bootloader as [A-Za-z0-9]*" "$sim_log" | head -n 1 | sed "s/in its bootloader as //") → $fl_total bytes${took:+ in ${took} s} → application $fl_version$resent"
    fi
fi

if wanted nordic-drops; then
    fresh_sim=("${nordic_sim[@]}" --drop create:2+execute:4+packet:60)
    run_fresh nordic-drops "$DFU" flash "$NORDIC_PACKAGE" --device "$RIG_ADDR_A" "${nordic_args[@]}" --connect-timeout 60
    drops=$(grep -c 'the bootloader drops the link' "$sim_log")
    resumed=$(grep -c '"event":"resumed"' "$LOGS/nordic-drops.out")
    if sim_failed nordic-drops; then :
    elif ! nordic_ok nordic-drops; then
        fail nordic-drops "$nordic_ok_why (the sim dropped the link $drops times)" "$LOGS/nordic-drops.out" \
            "$LOGS/nordic-drops.err" "$sim_log"
    elif [ "$drops" -ne 3 ]; then
        fail nordic-drops "the sim dropped the link $drops times, not 3" "$sim_log"
    elif [ "$resumed" -lt 3 ]; then
        fail nordic-drops "$resumed resumed events for 3 drops" "$LOGS/nordic-drops.out" "$sim_log"
    else
        pass nordic-drops "3 drops by the bootloader (after Create, after Execute, inside an object), $resumed resumes, application $fl_version"
    fi
fi

# The controller drops the link once a third of the firmware is acknowledged; the bootloader (SDK 17
# by default) reverts to its stored settings, and dfu continues from what Select reports.
if [[ $ONLY == *",nordic-link-drop,"* ]]; then
    fresh_sim=("${nordic_sim[@]}")
    cut_link_when nordic-link-drop 3
    run_fresh nordic-link-drop "$DFU" flash "$NORDIC_PACKAGE" --device "$RIG_ADDR_A" "${nordic_args[@]}"
    cut_link_done
    if sim_failed nordic-link-drop; then :
    elif [ ! -s "$LOGS/nordic-link-drop.cut" ]; then
        fail nordic-link-drop "the link was never cut: the transfer did not reach a third (exit $rc)" "$LOGS/nordic-link-drop.out" "$sim_log"
    elif ! nordic_ok nordic-link-drop; then
        fail nordic-link-drop "btmgmt disconnect $(cat "$LOGS/nordic-link-drop.cut"): $nordic_ok_why" \
            "$LOGS/nordic-link-drop.out" "$LOGS/nordic-link-drop.err" "$sim_log"
    elif ! grep -q '"event":"resumed"' "$LOGS/nordic-link-drop.out"; then
        fail nordic-link-drop "no resumed event: dfu did not continue after the drop" "$LOGS/nordic-link-drop.out" "$sim_log"
    else
        pass nordic-link-drop "btmgmt disconnect $(cat "$LOGS/nordic-link-drop.cut"); reconnected, application $fl_version"
    fi
fi

# The bootloader on hci2: powered for these scenarios, off again afterwards (as batch does).
# bootloader_adapter_on NAME: powers hci2 and makes B forget it; sets bl_addr (or skips NAME).
bl_hci=hci2 bl_addr=""
bootloader_adapter_on() {
    if [ ! -d "/sys/class/bluetooth/$bl_hci" ]; then
        skip "$1" "needs controller $bl_hci (boot the rig with RIG_BTVIRT_ARGS='-L -l5', as scripts/test-bluez.sh does)"
        return 1
    fi
    dbus-send --system --print-reply --dest=org.bluez "/org/bluez/$bl_hci" org.freedesktop.DBus.Properties.Set \
        string:org.bluez.Adapter1 string:Powered variant:boolean:true > /dev/null 2>&1
    for i in $(seq 50); do
        [ "$(property "/org/bluez/$bl_hci" org.bluez.Adapter1 Powered)" = "boolean true" ] && break
        sleep 0.2
    done
    bl_addr=$(property "/org/bluez/$bl_hci" org.bluez.Adapter1 Address | sed 's/^string "\(.*\)"$/\1/')
    dbus-send --system --print-reply --dest=org.bluez "/org/bluez/$RIG_HCI_B" org.bluez.Adapter1.RemoveDevice \
        "objpath:/org/bluez/$RIG_HCI_B/dev_${bl_addr//:/_}" > /dev/null 2>&1
    return 0  # B may not have known it
}
bootloader_adapter_off() {
    sim_stop
    dbus-send --system --print-reply --dest=org.bluez "/org/bluez/$bl_hci" org.freedesktop.DBus.Properties.Set \
        string:org.bluez.Adapter1 string:Powered variant:boolean:false > /dev/null 2>&1
}

nordic_elsewhere() {  # NAME EXTRA-SIM-ARGS...
    local name=$1; shift
    bootloader_adapter_on "$name" || return
    fresh_sim=("${nordic_sim[@]}" --bootloader-adapter "$bl_hci" "$@")
    run_fresh "$name" "$DFU" flash "$NORDIC_PACKAGE" --device "$RIG_ADDR_A" "${nordic_args[@]}" --verbose --connect-timeout 60
    bootloader_adapter_off
    local how
    # --json puts --verbose's log lines on stdout as "log" events
    how=$(grep -h -o 'the bootloader will advertise as Dfu[0-9]*\|cannot name its bootloader' "$LOGS/$name.out" "$LOGS/$name.err" | head -n 1)
    if sim_failed "$name"; then :
    elif ! nordic_ok "$name"; then
        fail "$name" "$nordic_ok_why" "$LOGS/$name.out" "$LOGS/$name.err" "$sim_log"
    elif ! grep -q "advertising again as Dfu[A-Za-z0-9]* on $bl_hci" "$sim_log"; then
        fail "$name" "the sim never advertised its bootloader on $bl_hci" "$sim_log"
    else
        pass "$name" "${how:-?}; bootloader found at $bl_hci's …:${bl_addr: -5}, application $fl_version"
    fi
}
wanted nordic-elsewhere && nordic_elsewhere nordic-elsewhere
wanted nordic-elsewhere-unnamed && nordic_elsewhere nordic-elsewhere-unnamed --set-name off

# nordic-resume-elsewhere: Ctrl-C once the bootloader on hci2 (named by dfu) has taken data, then
# `dfu resume`: the bootloader waits under that name only, at an address no rule derives; the
# journal kept the name, so the resumed run finds it there and finishes.
if wanted nordic-resume-elsewhere && bootloader_adapter_on nordic-resume-elsewhere; then
    state=$LOGS/nordic-resume-state
    rm -rf "$state" "$LOGS/nordic-resume-elsewhere.cut"
    fresh_sim=("${nordic_sim[@]}" --bootloader-adapter "$bl_hci")
    ( for i in $(seq 1200); do
          if grep -q '"event":"progress","schema":[0-9]*,"bytes":[1-9]' "$LOGS/nordic-resume-elsewhere.out" 2>/dev/null; then
              echo "after the first acknowledged data" > "$LOGS/nordic-resume-elsewhere.cut"
              pkill -INT -f "^$DFU flash $NORDIC_PACKAGE"
              exit 0
          fi
          sleep 0.1
      done ) &
    killer=$!
    XDG_STATE_HOME=$state run_fresh nordic-resume-elsewhere "$DFU" flash "$NORDIC_PACKAGE" --device "$RIG_ADDR_A" \
        "${nordic_args[@]}" --verbose --connect-timeout 60
    cut_rc=$rc
    [ -s "$LOGS/nordic-resume-elsewhere.cut" ] || kill "$killer" 2>/dev/null
    wait "$killer" 2>/dev/null
    named=$(grep -h -o 'the bootloader will advertise as Dfu[0-9]*' "$LOGS/nordic-resume-elsewhere.out" | head -n 1)
    XDG_STATE_HOME=$state run nordic-resume-elsewhere-resume "$DFU" resume --device "$RIG_ADDR_A" --json --verbose
    bootloader_adapter_off
    if sim_failed nordic-resume-elsewhere; then :
    elif [ ! -s "$LOGS/nordic-resume-elsewhere.cut" ] || [ "$cut_rc" -ne 130 ]; then
        fail nordic-resume-elsewhere "the flash was not cut in the bootloader (exit $cut_rc)" "$LOGS/nordic-resume-elsewhere.out" "$sim_log"
    elif [ -z "$named" ]; then
        fail nordic-resume-elsewhere "dfu never named the bootloader" "$LOGS/nordic-resume-elsewhere.out"
    elif [ "$rc" -ne 0 ]; then
        fail nordic-resume-elsewhere "cut after '$named', then dfu resume exited $rc" "$LOGS/nordic-resume-elsewhere-resume.out" \
            "$LOGS/nordic-resume-elsewhere-resume.err" "$sim_log"
    else
        pass nordic-resume-elsewhere "SIGINT in the bootloader ($named) on $bl_hci; dfu resume found it by that name and finished"
    fi
fi

# shellcheck shell=bash
# --- 12. dfu batch: three devices at once, each a sim on a controller of its own -------------------
# Sourced by bluez-rig-scenarios.sh (its run/pass/fail/wanted helpers, $DFU, $KEY, $IMAGE). The rig
# boots two controllers; this scenario needs three more on the same btvirt radio
# (RIG_BTVIRT_ARGS='-L -l5', which scripts/test-bluez.sh sets): hci2-hci4 are powered here, each
# serves a sim (one device per controller: a controller has one address), and dfu batch on B
# updates all three with --parallel 3 from a plan of their addresses. As in run_fresh, the sims
# start advertising once B is discovering (btvirt reports an advertiser only then; selfcheck header).
# Afterwards the three controllers are powered off again.
if wanted batch; then
    batch_hcis=() batch_addrs=()
    for hci in hci2 hci3 hci4; do
        [ -d "/sys/class/bluetooth/$hci" ] && batch_hcis+=("$hci")
    done
    if [ "${#batch_hcis[@]}" -lt 3 ]; then
        skip batch "needs controllers hci2-hci4 (boot the rig with RIG_BTVIRT_ARGS='-L -l5', as scripts/test-bluez.sh does)"
    else
        sim_stop
        powered_all=1
        for hci in "${batch_hcis[@]}"; do
            dbus-send --system --print-reply --dest=org.bluez "/org/bluez/$hci" org.freedesktop.DBus.Properties.Set \
                string:org.bluez.Adapter1 string:Powered variant:boolean:true > /dev/null 2>&1 || powered_all=0
        done
        for i in $(seq 50); do
            all=1
            for hci in "${batch_hcis[@]}"; do
                [ "$(property "/org/bluez/$hci" org.bluez.Adapter1 Powered)" = "boolean true" ] || all=0
            done
            [ "$all" = 1 ] && break
            sleep 0.2
        done
        for hci in "${batch_hcis[@]}"; do
            batch_addrs+=("$(property "/org/bluez/$hci" org.bluez.Adapter1 Address | sed 's/^string "\(.*\)"$/\1/')")
        done
        plan=$LOGS/batch-plan.csv
        { echo "device,image"; for addr in "${batch_addrs[@]}"; do echo "$addr,$PWD/$IMAGE"; done; } > "$plan"
        for addr in "${batch_addrs[@]}"; do
            dbus-send --system --print-reply --dest=org.bluez "/org/bluez/$RIG_HCI_B" org.bluez.Adapter1.RemoveDevice \
                "objpath:/org/bluez/$RIG_HCI_B/dev_${addr//:/_}" > /dev/null 2>&1
        done
        # --connect-timeout 30: the rig runs under TCG, where one connection takes 10-20 s to set up.
        # A device's wait for the adapter's turn (BlueZConnectGate) is not counted in it: before it
        # was, two of three timed out with the default 20 s (2026-12-03).
        # B discovers for the whole batch (bluetoothctl): btvirt reports an advertiser only when a scan
        # or the advertising starts, and with three devices rebooting at their own times dfu's own
        # discovery sessions come and go; a real device repeats its advertising.
        watch_start
        echo "\$ dfu batch $plan --adapter $RIG_HCI_B --parallel 3 --key $KEY --json --report $LOGS/batch.report" > "$LOGS/batch.cmd"
        batch_start=$SECONDS
        XDG_STATE_HOME=$LOGS/batch-state timeout -k 5 "$GUARD" "$DFU" batch "$plan" --adapter "$RIG_HCI_B" --parallel 3 \
            --key "$KEY" --connect-timeout 30 --json --report "$LOGS/batch.report" > "$LOGS/batch.out" 2> "$LOGS/batch.err" < /dev/null &
        batch_pid=$!
        batch_sims=()
        for n in 0 1 2; do
            "$DFU" sim --serve "bluez:${batch_hcis[$n]}" "${SIM_ARGS[@]/#$SIM_NAME/batch-$n}" \
                > "$LOGS/batch-sim-$n.log" 2>&1 < /dev/null &
            batch_sims+=($!)
        done
        wait "$batch_pid"
        rc=$?
        batch_seconds=$((SECONDS - batch_start))
        watch_stop
        for pid in "${batch_sims[@]}"; do kill -INT "$pid" 2>/dev/null; done
        for pid in "${batch_sims[@]}"; do wait "$pid" 2>/dev/null; done
        for hci in "${batch_hcis[@]}"; do
            dbus-send --system --print-reply --dest=org.bluez "/org/bluez/$hci" org.freedesktop.DBus.Properties.Set \
                string:org.bluez.Adapter1 string:Powered variant:boolean:false > /dev/null 2>&1
        done
        ok_lines=$(grep -c '"event":"device".*"result":"ok".*"version_after":"'"$NEW_VERSION"'"' "$LOGS/batch.out")
        if [ "$powered_all" = 0 ]; then
            fail batch "could not power ${batch_hcis[*]}"
        elif hung; then
            fail batch "no end within $GUARD s (hang guard)" "$LOGS/batch.out" "$LOGS/batch.err" "$LOGS/batch-sim-0.log"
        elif [ "$rc" -ne 0 ] || [ "$ok_lines" -ne 3 ]; then
            fail batch "exit $rc, $ok_lines of 3 devices ok" "$LOGS/batch.out" "$LOGS/batch.err" "$LOGS/batch-sim-0.log"
        elif ! cmp -s "$LOGS/batch.out" "$LOGS/batch.report"; then
            fail batch "--report differs from the --json lines" "$LOGS/batch.out" "$LOGS/batch.report"
        else
            per_device=$(sed -n 's/.*"event":"device".*"duration":\([0-9.]*\).*/\1/p' "$LOGS/batch.out" | paste -sd/ -)
            pass batch "3 devices (${batch_hcis[*]}) through $RIG_HCI_B, 3 at a time, $NEW_VERSION on each; ${batch_seconds} s in all, per device ${per_device} s"
        fi
    fi
fi

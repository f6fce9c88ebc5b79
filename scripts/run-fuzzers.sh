#!/usr/bin/env bash
# Runs the libFuzzer targets built by scripts/build-fuzzers.sh (docs/faults.md, "Fuzzing").
#
#   scripts/run-fuzzers.sh [SECONDS] [NAME...]     SECONDS per target (default 60); NAME: a target, Fuzz/NAME.swift or Fuzz/NAME/
#
# Each target starts from its seeds in Fuzz/corpus/NAME, from what earlier sessions' runs found and
# scripts/keep-fuzz-corpus.sh kept in Fuzz/grown/NAME (both read only), and from what earlier runs
# on this machine found in .build/fuzz/corpus/NAME, where new inputs go. A crash, a leak, a hang (-timeout, 10 s) or an
# input that needs more than 2 GiB (-rss_limit_mb) stops the target and leaves its input in
# .build/fuzz/artifacts/NAME/; the full log is .build/fuzz/logs/NAME.log. Prints one line per
# target (executions, the seconds it ran, libFuzzer's coverage: `cov` edges and `ft` features,
# crashes), then exactly
#   fuzz: T targets, E executions, C crashes
# and exits 1 if C > 0 (2 if it could not run). FUZZ_JOBS=2 runs two targets at a time.
# FUZZ_OPTIMIZATION and FUZZ_BUILD as for scripts/build-fuzzers.sh. FUZZ_FLAGS: more libFuzzer flags
# for every target (they win over the ones above), e.g. FUZZ_FLAGS='-rss_limit_mb=4096' for a run of hours.
set -euo pipefail

cd "$(dirname "$0")/.."
# The build scripts/build-fuzzers.sh made with the same FUZZ_OPTIMIZATION (and FUZZ_BUILD).
if [[ "${FUZZ_OPTIMIZATION:--O}" == -Onone ]]; then BUILD=${FUZZ_BUILD:-.build/fuzz-onone}; else BUILD=${FUZZ_BUILD:-.build/fuzz}; fi
seconds=${1:-60}
[[ $# -gt 0 ]] && shift
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || { echo "run-fuzzers: SECONDS must be a whole number > 0, not '$seconds'" >&2; exit 2; }
jobs=${FUZZ_JOBS:-1}

. scripts/fuzz-targets.sh
if (($#)); then targets=("$@"); else mapfile -t targets < <(fuzz_targets); fi
declare -A ENTRY=()
for target in "${targets[@]}"; do
    ENTRY[$target]=$(fuzz_entry "$target") || exit 2
    [[ -x "$BUILD/bin/fuzz-$target" ]] || { echo "run-fuzzers: no $BUILD/bin/fuzz-$target (run scripts/build-fuzzers.sh)" >&2; exit 2; }
done

# Runs one target; leaves "executions cov ft crashes" in $BUILD/logs/NAME.result.
run_one() {
    local target=$1 corpus="$BUILD/corpus/$1" artifacts="$BUILD/artifacts/$1" log="$BUILD/logs/$1.log"
    mkdir -p "$corpus" "$artifacts" "$BUILD/logs"
    rm -f "$artifacts"/*
    local seeds=() options=()
    [[ -d "Fuzz/corpus/$target" ]] && seeds+=("Fuzz/corpus/$target")
    [[ -d "Fuzz/grown/$target" ]] && seeds+=("Fuzz/grown/$target")
    # A target's own libFuzzer flags, from a line `// libFuzzer options: -max_len=1024` in its (entry) file.
    read -r -a options <<< "$(sed -n 's|^// libFuzzer options: ||p' "${ENTRY[$target]}") ${FUZZ_FLAGS:-}"
    # Swift's backtracer would catch the signal before AddressSanitizer and libFuzzer see it.
    # No allocation stacks while fuzzing (a quarter of the runs' time went to recording them);
    # rerunning the kept input prints them. ASAN_OPTIONS set by the caller wins.
    local started=$EPOCHSECONDS
    ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0} SWIFT_BACKTRACE=enable=no "$BUILD/bin/fuzz-$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "${options[@]}" "$corpus" "${seeds[@]}" > "$log" 2>&1 || true
    local executions cov ft crashes
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [[ -z "$executions" ]]; then
        # Stopped by a crash: the last status line counts what ran.
        executions=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    fi
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || true)
    ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n 1 | grep -oE '[0-9]+' || true)
    crashes=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    # The time it ran, which is less than SECONDS when -runs= or a crash stopped it.
    echo "${executions:-0} ${cov:-0} ${ft:-0} $crashes $((EPOCHSECONDS - started))" > "$BUILD/logs/$target.result"
}

running=0
for target in "${targets[@]}"; do
    run_one "$target" &
    running=$((running + 1))
    if ((running >= jobs)); then wait -n || true; running=$((running - 1)); fi
done
wait

total_executions=0
total_crashes=0
for target in "${targets[@]}"; do
    read -r executions cov ft crashes ran < "$BUILD/logs/$target.result"
    stopped=""
    ((crashes == 0)) || stopped=" (stopped at the first)"
    printf 'fuzz: %-20s %12s executions in %s s, cov %s, ft %s, %s crashes%s\n' "$target" "$executions" "$ran" "$cov" "$ft" \
        "$crashes" "$stopped"
    if ((crashes > 0)); then
        for artifact in "$BUILD/artifacts/$target"/*; do
            echo "fuzz: $target: $artifact; reproduce: SWIFT_BACKTRACE=enable=no $BUILD/bin/fuzz-$target $artifact"
        done
        grep -m 3 -E 'Fatal error|ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)' "$BUILD/logs/$target.log" | sed "s/^/fuzz: $target: /" || true
    fi
    total_executions=$((total_executions + executions))
    total_crashes=$((total_crashes + crashes))
done
echo "fuzz: ${#targets[@]} targets, $total_executions executions, $total_crashes crashes"
((total_crashes == 0))

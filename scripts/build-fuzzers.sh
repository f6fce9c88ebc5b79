#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (docs/faults.md, "Fuzzing"): BUILD/bin/fuzz-NAME.
#
#   scripts/build-fuzzers.sh [NAME...]     NAME: a target, Fuzz/NAME.swift or Fuzz/NAME/ (default: all of them)
#
# A SwiftPM executable target cannot host libFuzzer (../shared/reference/swift-on-linux.md), so the
# package's modules are compiled here by swiftc itself, instrumented (-sanitize=fuzzer,address, whole
# module), each into a static library and a .swiftmodule under BUILD/modules. A target is one file,
# Fuzz/NAME.swift, or a folder, Fuzz/NAME/, whose files are compiled together, its entry file
# Fuzz/NAME/NAME.swift holding the @_cdecl("LLVMFuzzerTestOneInput") (scripts/fuzz-targets.sh). Its
# files are compiled with Fuzz/Support and linked against the modules they import, and what those
# import. Fuzz/Support is compiled into every target, so it imports no module of the package (checked
# here, as every target would then have to link it): what several targets share and what needs the
# package is generic over it (Support/Exchange.swift over the instant) or stays in each target.
# Only the modules the targets import, and what those import, are built, two at a time as their
# imports allow. A module is rebuilt only when its sources, a module it imports or the flags changed
# (a stamp of their hashes), so a second run costs only the links that changed.
#
# Environment: SWIFTC (default swiftc); FUZZ_OPTIMIZATION: -O (default: `make fuzz`, for speed) or
# -Onone (`make test`: a third of the build time, and Swift's debug checks on); FUZZ_BUILD (default
# .build/fuzz for -O, .build/fuzz-onone for -Onone); FUZZ_JOBS modules at a time (default 2).
set -euo pipefail

cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-swiftc}
OPTIMIZATION=${FUZZ_OPTIMIZATION:--O}
case "$OPTIMIZATION" in
    -O) default_build=.build/fuzz ;;
    -Onone) default_build=.build/fuzz-onone ;;
    *) echo "build-fuzzers: FUZZ_OPTIMIZATION is -O or -Onone, not '$OPTIMIZATION'" >&2; exit 2 ;;
esac
BUILD=${FUZZ_BUILD:-$default_build}
JOBS=${FUZZ_JOBS:-2}
MODULES="$BUILD/modules"
BIN="$BUILD/bin"
LOGS="$BUILD/logs"
mkdir -p "$MODULES" "$BIN" "$LOGS"

# The package's modules: sources, and the modules they import (Package.swift's graph). `dfu` is the
# executable's module without main.swift (its top-level code), so its parsers can be linked.
declare -A SOURCES=(
    [Transport]=Sources/Transport/Core
    [DBusBinding]=Sources/Transport/DBus
    [BlueZTransport]=Sources/Transport/BlueZ
    [UDPTransport]=Sources/Transport/UDP
    [SerialTransport]=Sources/Transport/Serial
    [DFUCore]=Sources/DFUCore
    [DeviceSim]=Sources/DeviceSim
    [ExitCodes]=Sources/ExitCodes
    [ArgumentParsing]=Sources/ArgumentParsing
    [dfu]=Sources/dfu
)
declare -A DEPENDENCIES=(
    [Transport]=""
    [DBusBinding]="Transport"
    [BlueZTransport]="Transport DBusBinding"
    [UDPTransport]="Transport"
    [SerialTransport]="Transport"
    [DFUCore]="Transport"
    [DeviceSim]="DFUCore Transport DBusBinding BlueZTransport UDPTransport SerialTransport"
    [ExitCodes]="DFUCore"
    [ArgumentParsing]=""
    [dfu]="DFUCore Transport BlueZTransport UDPTransport SerialTransport DeviceSim ExitCodes ArgumentParsing"
)
# Longest first when several could start (DFUCore holds up the most).
BUILD_ORDER="Transport DFUCore DBusBinding BlueZTransport DeviceSim dfu ArgumentParsing UDPTransport SerialTransport ExitCodes"

# The C modules (module maps over Debian's libraries) and their headers' directories.
read -r -a C_FLAGS <<< "-I Sources/CDBus -I Sources/COpenSSL -I Sources/CZip -I Sources/CLZMA"
for flag in $(pkg-config --cflags-only-I dbus-1 libcrypto libzip liblzma); do C_FLAGS+=(-Xcc "$flag"); done
C_LIBRARIES=(-lcrypto -lzip -llzma -ldbus-1)

# -enable-testing: a target reaches a parser that is internal to its module (`@testable import`).
# -package-name: `package` symbols cross modules as they do in the SwiftPM build.
FLAGS=(-swift-version 6 "$OPTIMIZATION" -sanitize=fuzzer,address -enable-testing -package-name dfu -parse-as-library
       -I "$MODULES" "${C_FLAGS[@]}")
FLAGS_HASH=$(printf '%s\n' "$("$SWIFTC" --version 2>&1)" "${FLAGS[@]}" | sha256sum | cut -c1-64)

sources_of() {
    find "${SOURCES[$1]}" -name '*.swift' ! -path 'Sources/dfu/main.swift' | LC_ALL=C sort
}

# The package's modules the given files import.
imports_of() {
    sed -n -E 's/^(@testable +)?import +([A-Za-z]+).*/\2/p' "$@" | while read -r module; do
        [[ -n "${SOURCES[$module]:-}" ]] && echo "$module"
    done | sort -u
}

# Every module the given ones need: themselves and what they import.
closure_of() {
    local module dependency
    local -A seen=()
    local pending=("$@")
    while ((${#pending[@]})); do
        module=${pending[0]}; pending=("${pending[@]:1}")
        [[ -n "${seen[$module]:-}" ]] && continue
        seen[$module]=1
        echo "$module"
        for dependency in ${DEPENDENCIES[$module]}; do pending+=("$dependency"); done
    done
}

# Builds module $1 (its imports are built); prints one line when it compiled anything.
build_module() {
    local module=$1 dependency files stamp start=$SECONDS
    mapfile -t files < <(sources_of "$module")
    stamp=$( { echo "$FLAGS_HASH"; sha256sum "${files[@]}";
               for dependency in ${DEPENDENCIES[$module]}; do cat "$MODULES/$dependency.stamp"; done; } | sha256sum | cut -c1-64)
    if [[ -f "$MODULES/$module.stamp" && "$(cat "$MODULES/$module.stamp")" == "$stamp" && -f "$MODULES/lib$module.a" ]]; then
        return 0
    fi
    rm -f "$MODULES/$module.stamp" "$MODULES/lib$module.a"
    if ! "$SWIFTC" "${FLAGS[@]}" -module-name "$module" -wmo -num-threads 2 \
            -emit-module -emit-module-path "$MODULES/$module.swiftmodule" \
            -emit-library -static -o "$MODULES/lib$module.a" "${files[@]}" > "$LOGS/$module.build.log" 2>&1; then
        cat "$LOGS/$module.build.log" >&2
        return 1
    fi
    cat "$LOGS/$module.build.log"
    echo "$stamp" > "$MODULES/$module.stamp"
    echo "build-fuzzers: module $module (${#files[@]} files) built in $((SECONDS - start)) s"
}

. scripts/fuzz-targets.sh
if (($#)); then targets=("$@"); else mapfile -t targets < <(fuzz_targets); fi
# Each target's files, as one line (no path holds a space).
declare -A FILES=()
for target in "${targets[@]}"; do
    fuzz_entry "$target" > /dev/null || exit 2
    FILES[$target]=$(fuzz_files "$target" | tr '\n' ' ')
done

# What every target shares (input helpers, the exchange targets' driving loop, the TEST-ONLY keys).
mapfile -t SUPPORT < <(find Fuzz/Support -name '*.swift' | LC_ALL=C sort)
mapfile -t support_imports < <(imports_of "${SUPPORT[@]}")
if ((${#support_imports[@]})); then
    echo "build-fuzzers: Fuzz/Support imports ${support_imports[*]}; it is compiled into every target, so it imports no module of the package (move that code into the targets that need it)" >&2
    exit 2
fi
total_start=$SECONDS

# The modules, each as soon as the modules it imports are built, JOBS at a time.
mapfile -t wanted < <(for target in "${targets[@]}"; do read -r -a files <<< "${FILES[$target]}"; imports_of "${files[@]}"; done | sort -u)
mapfile -t needed < <(closure_of "${wanted[@]}" | sort -u)
declare -A NEEDED=() DONE=() RUNNING=()
for module in "${needed[@]}"; do NEEDED[$module]=1; done
while ((${#DONE[@]} < ${#NEEDED[@]})); do
    for module in $BUILD_ORDER; do
        [[ -n "${NEEDED[$module]:-}" && -z "${DONE[$module]:-}" && -z "${RUNNING[$module]:-}" ]] || continue
        ((${#RUNNING[@]} < JOBS)) || break
        ready=1
        for dependency in ${DEPENDENCIES[$module]}; do [[ -n "${DONE[$dependency]:-}" ]] || ready=0; done
        ((ready)) || continue
        build_module "$module" &
        RUNNING[$module]=$!
    done
    finished=""
    wait -n -p finished || { echo "build-fuzzers: a module failed to build (above)" >&2; wait; exit 1; }
    for module in "${!RUNNING[@]}"; do
        if [[ "${RUNNING[$module]}" == "$finished" ]]; then DONE[$module]=1; unset "RUNNING[$module]"; fi
    done
done

for target in "${targets[@]}"; do
    read -r -a files <<< "${FILES[$target]}"
    mapfile -t imports < <(imports_of "${files[@]}")
    mapfile -t linked < <(closure_of "${imports[@]}")
    libraries=()
    for module in "${linked[@]}"; do libraries+=("-l$module"); done
    binary="$BIN/fuzz-$target"
    stamp=$( { echo "$FLAGS_HASH"; sha256sum "${files[@]}" "${SUPPORT[@]}"; for module in "${linked[@]}"; do cat "$MODULES/$module.stamp"; done; } \
             | sha256sum | cut -c1-64)
    if [[ -x "$binary" && -f "$binary.stamp" && "$(cat "$binary.stamp")" == "$stamp" ]]; then continue; fi
    rm -f "$binary.stamp"
    # lld: ld.gold warns about every ASan helper it cannot export.
    "$SWIFTC" "${FLAGS[@]}" -module-name "Fuzz${target//[^A-Za-z0-9]/}" -use-ld=lld \
        "${files[@]}" "${SUPPORT[@]}" -L "$MODULES" "${libraries[@]}" "${C_LIBRARIES[@]}" -o "$binary"
    echo "$stamp" > "$binary.stamp"
done
echo "build-fuzzers: ${#targets[@]} targets ($OPTIMIZATION) ready in $BUILD/bin in $((SECONDS - total_start)) s"

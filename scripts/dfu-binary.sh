# Sourced by the cross-check scripts (after they set `repo`): the dfu binary they run.

# resolve_dfu NAME [PATH]: sets `dfu` to PATH (default .build/debug/dfu; a relative one is taken
# from the current directory, else from the repository root) as an absolute path; exit 2, with
# NAME in the message, when no executable is there.
resolve_dfu() {
    local me="$1"
    dfu="${2:-.build/debug/dfu}"
    if [[ ! -e "$dfu" && "$dfu" != /* && -e "$repo/$dfu" ]]; then dfu="$repo/$dfu"; fi
    if [[ ! -x "$dfu" || -d "$dfu" ]]; then
        echo "$me: no executable dfu at '$dfu' (build it first: swift build)" >&2
        exit 2
    fi
    dfu="$(cd "$(dirname "$dfu")" && pwd)/$(basename "$dfu")"
}

# Shared helpers of the stage scripts in .ci/stages/ (sourced by each of them).
# A stage script is an executable that .ci/run calls from its STAGES list; it
# runs from the repository root and fails with a non-zero exit. Build trees go
# to build-<stage>/ beside build/ (ignored by git).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export CI=${CI:-true}
JOBS=${JOBS:-2}

say() { printf '\n==== %s\n' "$*"; }

# need PKG[:COMMAND]... : install the Debian packages that are missing (a package
# counts as present when dpkg has it or, given COMMAND, that command exists).
# `apt-get update` runs at most once per .ci/run: every stage is a child of the
# same .ci/run process, so its pid keys the stamp file.
need() {
    local missing=() item pkg cmd
    for item in "$@"; do
        pkg=${item%%:*}
        cmd=${item#*:}
        [[ $cmd == "$item" ]] && cmd=""
        if [[ -n $cmd ]] && command -v "$cmd" >/dev/null 2>&1; then continue; fi
        dpkg -s "$pkg" >/dev/null 2>&1 && continue
        missing+=("$pkg")
    done
    ((${#missing[@]} == 0)) && return 0
    say "installing ${missing[*]}"
    local sudo=() stamp="${TMPDIR:-/tmp}/tlayout-ci-apt-updated.$PPID"
    [[ $(id -u) != 0 ]] && sudo=(sudo)
    if [[ ! -e $stamp ]]; then
        "${sudo[@]}" apt-get update
        : >"$stamp"
    fi
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
}

need_build_tools() { need cmake:cmake gcc:gcc make:make libc6-dev; }
need_clang() { need clang:clang libclang-rt-14-dev; }

# step NAME COMMAND... : run a command and print how long it took, so a stage's
# log shows where its time goes (.ci/run prints the stage's total).
step() {
    local name=$1 t0=$SECONDS
    shift
    printf -- '---- %s\n+ %s\n' "$name" "$*"
    "$@"
    printf -- '---- %s: %ds\n' "$name" $((SECONDS - t0))
}

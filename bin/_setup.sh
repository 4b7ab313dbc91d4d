# shellcheck shell=bash
# Shared by bin/colorit and bin/test (sourced, not run): make sure .venv inside the
# checkout holds this version of colorit with the extras the command needs, and that
# its kernels are compiled.
#
# Installing goes through uv when it can be had (seconds instead of half a minute), else
# pip. The stamp file records pyproject.toml's checksum, the checkout folder and the
# extras installed, so later runs cost one `cksum` and start straight away. Kernels:
# bin/colorit compiles the few a small default solve needs, then the rest in the
# background (niced), so the first answer comes within seconds of a clone; bin/test
# compiles everything before the tests. Progress and errors go to stderr, so stdout
# stays the command's own.

colorit_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
colorit_venv="$colorit_root/.venv"
colorit_python="$colorit_venv/bin/python"

colorit_say() { printf 'colorit setup: %s\n' "$*" >&2; }

# A python3 of at least 3.11: $COLORIT_PYTHON if set, else the first that fits.
colorit_find_python() {
    local candidate
    for candidate in ${COLORIT_PYTHON:-} python3.11 python3.12 python3.13 python3.14 python3; do
        if command -v "$candidate" >/dev/null 2>&1 \
            && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}

# What the install stamp records: pyproject.toml's checksum and where the checkout is
# (an editable install points at it, so a moved checkout is reinstalled).
colorit_hash() {
    printf '%s %s' "$(cksum <"$colorit_root/pyproject.toml" | cut -d' ' -f1)" "$colorit_root"
}

# What the kernels were compiled from: every source file of the package, at any depth
# (a fixed glob depth would miss a deeper module and leave its kernels stale), in a fixed
# order, with their paths (a moved file is a change too).
colorit_src_hash() {
    (cd "$colorit_root" && find colorit -name '*.py' -not -path '*/__pycache__/*' | LC_ALL=C sort | while IFS= read -r f; do
        printf '%s\n' "$f"
        cat "$f"
    done) | cksum | cut -d' ' -f1
}

# Numba checks a cached kernel against its own file only, not against the files of the
# kernels it calls: after a change, every cached kernel goes.
colorit_clear_kernel_cache() {
    if [[ -n "${NUMBA_CACHE_DIR:-}" ]]; then
        find "$NUMBA_CACHE_DIR" \( -name '*.nbi' -o -name '*.nbc' \) -delete 2>/dev/null || true
    else
        find "$colorit_root/colorit" -path '*/__pycache__/*' \( -name '*.nbi' -o -name '*.nbc' \) -delete 2>/dev/null || true
    fi
}

# colorit_warm essential|full: compile the kernels unless this version's are compiled.
# "essential" compiles what a small default solve needs now and the rest in the
# background; "full" compiles everything now.
colorit_warm() {
    local mode="$1" want stamp="$colorit_venv/.colorit-warm" lock="$colorit_venv/.colorit-warming"
    want="$(colorit_src_hash)"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
        return 0
    fi
    if [[ "$(cat "$colorit_venv/.colorit-kernels-of" 2>/dev/null)" != "$want" ]]; then
        colorit_clear_kernel_cache
        # the package's own bytecode, for the same reason as --compile-bytecode above
        "$colorit_python" -m compileall -q "$colorit_root/colorit" >/dev/null 2>&1 || true
        printf '%s\n' "$want" >"$colorit_venv/.colorit-kernels-of"
    fi
    if [[ "$mode" == full ]]; then
        colorit_say "compiling the solver kernels (once per version)"
        if ! (cd "$colorit_root" && "$colorit_python" -m colorit.runtime.warmup) >&2; then
            colorit_say "error: 'python -m colorit.runtime.warmup' failed"
            exit 2
        fi
        printf '%s\n' "$want" >"$stamp"
        COLORIT_SETUP_RAN=1
        return 0
    fi
    # a background warm-up of this version already running: leave it be
    if [[ -f "$lock" ]] && [[ "$(sed -n 2p "$lock")" == "$want" ]] && kill -0 "$(sed -n 1p "$lock")" 2>/dev/null; then
        return 0
    fi
    colorit_say "compiling the kernels a first solve needs (the rest follow in the background)"
    if ! (cd "$colorit_root" && "$colorit_python" -m colorit.runtime.warmup --essential) >&2; then
        colorit_say "error: 'python -m colorit.runtime.warmup --essential' failed"
        exit 2
    fi
    (
        cd "$colorit_root" || exit 0
        nohup nice -n 10 "$colorit_python" -c '
import sys
from colorit.runtime.warmup import setup
print(setup())
open(sys.argv[1], "w").write(sys.argv[2] + "\n")
' "$stamp" "$want" >"$colorit_venv/warmup.log" 2>&1 </dev/null &
        printf '%s\n%s\n' "$!" "$want" >"$lock"
    )
    COLORIT_SETUP_RAN=1
}

# colorit_install "EXTRAS": pip-install colorit (editable) with EXTRAS (comma separated,
# may be empty) into the venv, with uv when it can be had.
colorit_install() {
    local extras="$1" log="$colorit_venv/setup.log" spec="."
    [[ -n "$extras" ]] && spec=".[$extras]"
    colorit_say "installing colorit${extras:+[$extras]} and its dependencies into .venv (log: $log)"
    local uv=""
    if command -v uv >/dev/null 2>&1; then
        uv="$(command -v uv)"
    elif [[ -x "$colorit_venv/bin/uv" ]] || "$colorit_python" -m pip install -q --disable-pip-version-check uv >"$log" 2>&1; then
        uv="$colorit_venv/bin/uv"
    fi
    # --compile-bytecode: where PYTHONDONTWRITEBYTECODE is set, nothing would ever cache
    # numba's bytecode, and every run would spend half a second compiling it again
    if [[ -n "$uv" ]] && (cd "$colorit_root" && "$uv" pip install --compile-bytecode --python "$colorit_python" -e "$spec") >>"$log" 2>&1; then
        return 0
    fi
    [[ -n "$uv" ]] && colorit_say "uv failed (see $log); installing with pip instead"
    if ! (cd "$colorit_root" && "$colorit_python" -m pip install --disable-pip-version-check -e "$spec") >>"$log" 2>&1; then
        tail -n 20 "$log" >&2
        colorit_say "error: pip install failed; see $log"
        exit 2
    fi
}

# colorit_setup run|test [EXTRAS]: ensure the venv has colorit with EXTRAS (test: every
# extra and the test tools) and compiled kernels. Sets COLORIT_SETUP_RAN=1 when it had to
# install or compile in the foreground.
colorit_setup() {
    local kind="$1" needed="${2:-}" want stamp="$colorit_venv/.colorit-install" have=""
    [[ "$kind" == test ]] && needed="test"
    want="$(colorit_hash)"
    COLORIT_SETUP_RAN=0
    if [[ -x "$colorit_python" && -f "$stamp" && "$(sed -n 1p "$stamp")" == "$want" ]]; then
        have="$(sed -n 2p "$stamp")"
        local missing=0 e
        for e in ${needed//,/ }; do
            [[ ",$have," == *",$e,"* || ",$have," == *",test,"* ]] || missing=1
        done
        if [[ $missing == 0 ]]; then
            colorit_warm "$([[ "$kind" == test ]] && echo full || echo essential)"
            return 0
        fi
    fi
    local t0=$SECONDS
    if ! [[ -x "$colorit_python" ]] || ! "$colorit_python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        local base
        if ! base="$(colorit_find_python)"; then
            colorit_say "error: colorit needs Python 3.11 or newer (python3.11 or python3 on PATH, or set COLORIT_PYTHON)"
            exit 2
        fi
        colorit_say "first run: creating $colorit_venv with $base ($("$base" --version 2>&1))"
        rm -rf "$colorit_venv"
        if ! "$base" -m venv "$colorit_venv"; then
            colorit_say "error: '$base -m venv' failed (on Debian/Ubuntu: apt install python3-venv)"
            exit 2
        fi
        have=""
    fi
    # keep what is there, add what is needed
    local extras
    extras="$(printf '%s\n' ${have//,/ } ${needed//,/ } | sort -u | paste -sd, -)"
    rm -f "$stamp"
    colorit_install "$extras"
    printf '%s\n%s\n' "$want" "$extras" >"$stamp"
    colorit_warm "$([[ "$kind" == test ]] && echo full || echo essential)"
    colorit_say "ready in $((SECONDS - t0)) s"
    COLORIT_SETUP_RAN=1
}

# Whether "$1", a word of the command line, is option "$2" (``--plot``), whole or
# abbreviated as argparse takes it (at least ``$3`` characters: "--pl" for --plot), with
# or without "=VALUE".
colorit_is_option() {
    local word="${1%%=*}" option="$2" shortest="${3:-3}"
    [[ ${#word} -ge $shortest && "$option" == "$word"* ]]
}

# The extras a command line needs: pictures for show writing a picture (-o FILE) and for
# --plot, web for serve, cluster for --scheduler. The terminal replay of show needs none.
colorit_extras_for() {
    local command="${1:-}" pictures=0 web=0 cluster=0 arg
    [[ "$command" == serve ]] && web=1
    for arg in "$@"; do
        if colorit_is_option "$arg" --plot; then
            pictures=1
        elif colorit_is_option "$arg" --scheduler 4; then
            cluster=1
        elif [[ "$command" == show ]] && { colorit_is_option "$arg" --output || [[ "$arg" =~ ^-[qh]*o ]]; }; then
            pictures=1
        fi
    done
    local extras=""
    [[ $pictures == 1 ]] && extras="pictures"
    [[ $web == 1 ]] && extras="${extras:+$extras,}web"
    [[ $cluster == 1 ]] && extras="${extras:+$extras,}cluster"
    printf '%s' "$extras"
}

# shellcheck shell=bash
# Shared by bin/colorit and bin/test (sourced, not run): make sure .venv inside the
# checkout holds this version of colorit, creating or refreshing it when needed.
#
# The venv is (re)installed when the stamp file is missing or records another hash of
# pyproject.toml (or another checkout folder), so later runs cost one `cksum` and start straight away. Progress and
# errors go to stderr, so stdout stays the command's own.

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

# What the stamp records: pyproject.toml's checksum and where the checkout is (an
# editable install points at it, so a moved checkout is reinstalled).
colorit_hash() {
    printf '%s %s' "$(cksum <"$colorit_root/pyproject.toml" | cut -d' ' -f1)" "$colorit_root"
}

# What the kernels were compiled from: the package's sources (a pull that changes them
# recompiles at setup, not inside the next solve's time limit).
colorit_src_hash() {
    cat "$colorit_root"/colorit/*.py "$colorit_root"/colorit/*/*.py 2>/dev/null | cksum | cut -d' ' -f1
}

# Compile the kernels again if the sources changed since the last warm-up.
colorit_warm() {
    local want stamp="$colorit_venv/.colorit-warm"
    want="$(colorit_src_hash)"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
        return 0
    fi
    colorit_say "compiling the solver kernels (once per version)"
    if ! (cd "$colorit_root" && "$colorit_python" -m colorit.warmup) >&2; then
        colorit_say "error: 'python -m colorit.warmup' failed"
        exit 2
    fi
    printf '%s\n' "$want" >"$stamp"
    COLORIT_SETUP_RAN=1
}

# colorit_setup run|test: ensure the venv has colorit (plus the test extras for "test"),
# with its kernels compiled. Sets COLORIT_SETUP_RAN=1 when it had to install or compile.
colorit_setup() {
    local kind="$1" want stamp extras
    want="$(colorit_hash)"
    stamp="$colorit_venv/.colorit-$kind"
    COLORIT_SETUP_RAN=0
    if [[ -x "$colorit_python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
        colorit_warm
        return 0
    fi
    # a test setup is a superset of a run setup
    if [[ "$kind" == run && -x "$colorit_python" && -f "$colorit_venv/.colorit-test" \
        && "$(cat "$colorit_venv/.colorit-test")" == "$want" ]]; then
        colorit_warm
        return 0
    fi
    local t0=$SECONDS log="$colorit_venv/setup.log"
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
    fi
    extras=""
    [[ "$kind" == test ]] && extras="[test]"
    colorit_say "installing colorit$extras and its dependencies into .venv (log: $log)"
    rm -f "$colorit_venv/.colorit-run" "$colorit_venv/.colorit-test"
    if ! (cd "$colorit_root" && "$colorit_python" -m pip install --disable-pip-version-check -e ".$extras") >"$log" 2>&1; then
        tail -n 20 "$log" >&2
        colorit_say "error: pip install failed; see $log"
        exit 2
    fi
    rm -f "$colorit_venv/.colorit-warm"
    colorit_warm
    printf '%s\n' "$want" >"$stamp"
    colorit_say "ready in $((SECONDS - t0)) s"
    COLORIT_SETUP_RAN=1
}

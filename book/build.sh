#!/usr/bin/env bash
# Builds the book into book/_build/html, readable offline.
#
#   book/build.sh                  build into book/_build/html
#   book/build.sh --out DIR        build into DIR/_build/html instead (the tests do)
#   book/build.sh --assets-only    only vendor the browser assets into book/_assets
#
# Steps:
#  1. `npm ci` from package-lock.json, skipped when node_modules already matches it;
#  2. copy what the pages load (RequireJS, the Jupyter widget manager, MathJax 3)
#     into book/_assets/, which _config.yml serves from the top of the built HTML;
#  3. `jupyter-book build -W -n --keep-going`: any warning fails the build.
# Uses the Python on PATH, or $PYTHON (./run book sets it to the project's venv).
set -euo pipefail

BOOK=$(cd "$(dirname "$0")" && pwd)
OUT=""
ASSETS_ONLY=0
while [ $# -gt 0 ]; do
    case "$1" in
        --out) OUT=$2; shift 2 ;;
        --out=*) OUT=${1#--out=}; shift ;;
        --assets-only) ASSETS_ONLY=1; shift ;;
        *) echo "usage: $0 [--out DIR] [--assets-only]" >&2; exit 2 ;;
    esac
done
PYTHON=${PYTHON:-python3}
say() { printf '\033[1m[book]\033[0m %s\n' "$*" >&2; }

# Two builds at once (say, two test runs) must not install or copy over each other.
exec 9>"$BOOK/.build.lock"
flock 9

# --- 1. npm packages -----------------------------------------------------------------
lock_hash=$(sha256sum "$BOOK/package-lock.json" | cut -d' ' -f1)
stamp="$BOOK/node_modules/.minigrad-lock-sha256"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
    command -v npm >/dev/null 2>&1 || {
        say "npm is needed once to fetch the book's browser assets (apt-get install -y npm)."
        exit 1
    }
    say "npm ci (RequireJS, @jupyter-widgets/html-manager, MathJax 3)"
    # --ignore-scripts: only files are needed, no install step runs.
    (cd "$BOOK" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    echo "$lock_hash" > "$stamp"
fi

# --- 2. the assets the pages load ------------------------------------------------------
"$PYTHON" - "$BOOK" <<'PY'
"""Copies the browser assets from node_modules into book/_assets (skipped when current)."""
import hashlib, json, shutil, sys
from pathlib import Path

book = Path(sys.argv[1])
modules, assets = book / "node_modules", book / "_assets"
manager = modules / "@jupyter-widgets" / "html-manager" / "dist"
mathjax = modules / "mathjax" / "es5"
# MathJax: the TeX-to-HTML component and what it loads on demand (TeX extensions,
# fonts, the menu, accessibility and speech), not the other combined components.
MATHJAX_PARTS = ["tex-chtml.js", "input", "output/chtml", "output/chtml.js", "ui", "a11y", "sre", "adaptors"]
copies = {  # destination under _assets -> source
    "jupyter-widgets/require.js": modules / "requirejs" / "require.js",
    "jupyter-widgets/setup.js": book / "widgets-setup.js",  # ours: see its comments
    "jupyter-widgets/embed-amd.js": manager / "embed-amd.js",
    # the icon fonts the widgets' CSS names, found beside embed-amd.js
    **{f"jupyter-widgets/{p.name}": p for p in sorted(manager.iterdir())
       if p.suffix in {".woff", ".woff2", ".ttf", ".eot", ".svg"}},
    **{f"mathjax/{part}": mathjax / part for part in MATHJAX_PARTS},
}
versions = {name: json.loads((modules / name / "package.json").read_text())["version"]
            for name in ("requirejs", "@jupyter-widgets/html-manager", "mathjax")}
want = hashlib.sha256(json.dumps([versions, sorted(copies), (book / "widgets-setup.js").read_text()]).encode()).hexdigest()
stamp = assets / ".stamp"
if stamp.is_file() and stamp.read_text() == want:
    sys.exit(0)
shutil.rmtree(assets, ignore_errors=True)
for dest, source in copies.items():
    target = assets / dest
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copy2(source, target)
(assets / "VERSIONS.json").write_text(json.dumps(versions, indent=2) + "\n")
stamp.write_text(want)
print(f"[book] vendored {', '.join(f'{k} {v}' for k, v in versions.items())} into {assets}", file=sys.stderr)
PY
[ "$ASSETS_ONLY" = 1 ] && exit 0

# --- 3. the book ---------------------------------------------------------------------
[ -d "$BOOK/notebooks/" ] || { say "No notebooks/ folder next to book/: nothing to build."; exit 1; }
args=(build -W -n --keep-going)
[ -n "$OUT" ] && args+=(--path-output "$OUT")
JB=$(dirname "$("$PYTHON" -c 'import sys; print(sys.executable)')")/jupyter-book
[ -x "$JB" ] || JB=jupyter-book
"$JB" "${args[@]}" "$BOOK"
say "Built: ${OUT:-$BOOK}/_build/html/index.html (open it from disk; it needs no network)"

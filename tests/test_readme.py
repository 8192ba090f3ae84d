"""Every code block of the README runs as a newcomer would paste it.

* Python blocks run as they stand, each in a fresh interpreter, from an empty folder.
* "A taste" says its lines run under ``import torch`` too: it runs under PyTorch as well,
  and every ``print(...)  # comment`` prints what its comment says (up to a ``...``),
  in both libraries; both print the same, but for minigrad's "In plain words" hints.
* Shell blocks name ``./run`` commands: each must be one the script knows.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```", README, flags=re.S | re.M)
PYTHON = [code for lang, code in BLOCKS if lang == "python"]
SHELL = [code for lang, code in BLOCKS if lang in ("bash", "sh", "shell")]


def _section(code):
    """The README heading the block sits under."""
    before = README[: README.index(code)]
    return re.findall(r"^## (.+)$", before, flags=re.M)[-1]


def _run(code, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)


def test_the_readme_has_the_blocks_this_file_tests():
    assert {_section(code) for code in PYTHON} >= {"A taste", "Seeing it: `viz`"}
    assert SHELL


@pytest.mark.parametrize("code", PYTHON, ids=[_section(code) for code in PYTHON])
def test_python_block_runs_as_written(code, tmp_path):
    done = _run(code, tmp_path)
    assert done.returncode == 0, f"the block under {_section(code)!r} failed:\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, done.stderr[-3000:]


def _expectations(code):
    """(line number, expected text) for each ``print(...)  # comment`` line."""
    found = []
    for number, line in enumerate(code.splitlines()):
        match = re.match(r"\s*print\(.*\)\s+#\s*(.+)$", line)
        if match:
            expected = match[1].split("...")[0].split("):")[0].strip()
            found.append((number, expected))
    return found


def _normal(text):
    return re.sub(r" at 0x[0-9a-f]+", " at 0x", text)


@pytest.mark.parametrize("library", ["minigrad", "torch"])
def test_a_taste_prints_what_its_comments_say(library, tmp_path, torch):
    taste = next(code for code in PYTHON if _section(code) == "A taste")
    assert taste.startswith("import minigrad as torch")
    code = taste if library == "minigrad" else taste.replace("import minigrad as torch", "import torch", 1)
    done = _run(code, tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = _normal(done.stdout)
    expectations = _expectations(taste)
    assert len(expectations) >= 4, "the block's print lines lost their comments"
    missing = [expected for _, expected in expectations if _normal(expected) not in printed]
    assert not missing, f"under {library}, not printed: {missing}\nprinted:\n{done.stdout}"


def test_a_taste_prints_the_same_under_both(tmp_path, torch):
    taste = next(code for code in PYTHON if _section(code) == "A taste")
    ours = _run(taste, tmp_path)
    theirs = _run(taste.replace("import minigrad as torch", "import torch", 1), tmp_path)
    assert ours.returncode == theirs.returncode == 0, ours.stderr[-2000:] + theirs.stderr[-2000:]
    # minigrad's errors add a paragraph "In plain words: ..." after PyTorch's message (messages.py)
    hints = re.compile(r"\n\nIn plain words: [^\n]*")
    assert hints.sub("", _normal(ours.stdout)) == _normal(theirs.stdout)


def test_shell_blocks_name_commands_that_run_knows():
    script = (REPO / "run").read_text(encoding="utf-8")
    known = set(re.findall(r"^    ([a-z|]+)\)", script, flags=re.M))
    known = {name for entry in known for name in entry.split("|")}
    named = [m[1] for code in SHELL for m in re.finditer(r"^\./run (\w+)", code, flags=re.M)]
    assert named, "no ./run command in the README's shell blocks"
    unknown = sorted(set(named) - known)
    assert not unknown, f"./run does not know {unknown} (it knows {sorted(known)})"
    subprocess.run(["bash", "-n", str(REPO / "run")], check=True)

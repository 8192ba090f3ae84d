"""Every script in torch_scripts/ behaves the same under PyTorch and under ``import minigrad as torch``.

One test per cell (``script.py::cell title``): see torch_script_runner.py for what is compared. The scripts
are written in the styles users bring: a tutorial script, a lecture notebook's cells, a
PyTorch-test-like check, and misuse (wrong calls that PyTorch refuses and minigrad must refuse too).
"""

import functools
import json
import pathlib
import subprocess
import sys
import tempfile

import pytest

from torch_script_runner import CellOutcome, differences, split_cells

HERE = pathlib.Path(__file__).parent
SCRIPTS = sorted((HERE / "torch_scripts").glob("*.py"))

# Run in a fresh process: every script, in order, with one library.
_RUN_EVERY_SCRIPT = """
import dataclasses, json, pathlib, sys
sys.path.insert(0, sys.argv[1])
from torch_script_runner import run_script
library, out, paths = sys.argv[2], sys.argv[3], sys.argv[4:]
outcomes = [[dataclasses.astuple(o) for o in run_script(pathlib.Path(p).read_text(), pathlib.Path(p).name, library)]
            for p in paths]
pathlib.Path(out).write_text(json.dumps(outcomes))
"""


@functools.lru_cache(maxsize=None)
def _outcomes_of_every_script(library):
    """``{path: [CellOutcome]}``: each library runs every script in one fresh process of its own, in the
    same order. A warning PyTorch gives once per process (TORCH_WARN_ONCE, which minigrad copies)
    then shows at the same cell under both libraries, whatever else ran in pytest's process."""
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder) / "outcomes.json"
        subprocess.run([sys.executable, "-c", _RUN_EVERY_SCRIPT, str(HERE), library, str(out), *map(str, SCRIPTS)],
                       check=True, timeout=600)
        every = json.loads(out.read_text())
    return {path: [CellOutcome(title, output, [tuple(w) for w in shown], exception and tuple(exception))
                   for title, output, shown, exception in cells]
            for path, cells in zip(SCRIPTS, every)}


def _outcomes(path, library):
    return _outcomes_of_every_script(library)[path]


def _cases():
    for path in SCRIPTS:
        for index, (title, _) in enumerate(split_cells(path.read_text())):
            yield pytest.param(path, index, id=f"{path.stem}::{index}-{title}")


@pytest.mark.parametrize(("path", "index"), list(_cases()))
def test_cell_behaves_as_in_pytorch(path, index, torch):
    expected = _outcomes(path, "torch")[index]
    got = _outcomes(path, "minigrad")[index]
    found = differences(expected, got)
    assert not found, f"{path.name}, cell {index} ({expected.title}):\n" + "\n".join(found)

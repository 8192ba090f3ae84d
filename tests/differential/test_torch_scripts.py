"""Every script in torch_scripts/ behaves the same under PyTorch and under ``import minigrad as torch``.

One test per cell (``script.py::cell title``): see torch_script_runner.py for what is compared. The scripts
are written in the styles users bring: a tutorial script, a lecture notebook's cells, a
PyTorch-test-like check, and misuse (wrong calls that PyTorch refuses and minigrad must refuse too).
"""

import functools
import pathlib

import pytest

from torch_script_runner import differences, run_script, split_cells

SCRIPTS = sorted((pathlib.Path(__file__).parent / "torch_scripts").glob("*.py"))


@functools.lru_cache(maxsize=None)
def _outcomes(path, library):
    return run_script(path.read_text(), path.name, library)


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

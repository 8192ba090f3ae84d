"""Run a PyTorch script twice, under PyTorch and with minigrad imported as ``torch``, and compare.

This is how minigrad checks its promise on code written the way users write it (a tutorial
script, a lecture notebook, a PyTorch-test-like check) rather than on calls we chose:

1. A script is split into cells at lines that start with ``# %%`` (the cell markers editors use
   for notebooks-as-scripts); the rest of that line is the cell's title.
2. Each library runs the cells in order in one namespace of its own, as a notebook's kernel would:
   a cell that raises does not stop the next one. (test_torch_scripts.py runs every script with one
   library in a fresh process of its own, so warnings given once per process match too.)
3. Under minigrad, ``import torch``, ``import torch.nn as nn``, ``from torch.autograd import
   Variable`` ... import the matching ``minigrad`` modules; nothing else changes.
4. For each cell we record what a learner would see: what it printed, the warnings it raised
   (category and text) and the exception it ended with (type and text).
5. Both records are normalised the same way (``normalise``) and must then be equal: texts exactly,
   numbers to the precision they were printed with.
"""

import builtins
import contextlib
import dataclasses
import importlib
import io
import re
import signal
import warnings

#: How long one cell may run before it counts as hanging (seconds).
CELL_TIMEOUT = 60

# minigrad's messages are PyTorch's, optionally followed by a plain-language hint.
_HINT = re.compile(r"\n\nIn plain words: .*?(?=\n\n|\Z)", re.DOTALL)
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
# PyTorch's C++ warnings name the source line that raised them: not part of the message.
_CPP_ORIGIN = re.compile(r" \(Triggered internally at [^)]*\)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_SPACES = re.compile(r"[ \t]+")


@dataclasses.dataclass
class CellOutcome:
    """What one cell showed: printed text, warnings and the exception it raised (if any)."""

    title: str
    output: str
    warnings: list  # of (category name, message)
    exception: tuple | None  # (type name, message)


def split_cells(source):
    """``[(title, code), ...]``: the script cut at its ``# %%`` lines (code before the first is cell 0)."""
    cells, title, lines = [], "(preamble)", []
    for line in source.splitlines(keepends=True):
        if line.startswith("# %%"):
            if "".join(lines).strip():
                cells.append((title, "".join(lines)))
            title, lines = line[4:].strip() or f"cell {len(cells)}", []
        else:
            lines.append(line)
    if "".join(lines).strip():
        cells.append((title, "".join(lines)))
    return cells


def _importer_as_torch():
    """``__import__`` that reads ``torch`` and ``torch.*`` as ``minigrad`` and ``minigrad.*``."""
    real_import = builtins.__import__

    def import_as_torch(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            name = "minigrad" + name[len("torch"):]
            importlib.import_module(name)  # so `import torch.nn.functional as F` finds the attribute chain
        return real_import(name, globals, locals, fromlist, level)

    return import_as_torch


class _CellTimeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds):
    def stop(signum, frame):
        raise _CellTimeout(f"the cell ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_script(source, filename, library):
    """Run every cell of ``source`` with ``library`` ("torch" or "minigrad") as ``torch``.

    Returns:
        list of CellOutcome, one per cell.
    """
    namespace = {"__name__": "__main__", "__file__": filename}
    if library == "minigrad":
        namespace["__builtins__"] = {**vars(builtins), "__import__": _importer_as_torch()}
    outcomes = []
    try:
        for index, (title, code) in enumerate(split_cells(source)):
            printed = io.StringIO()
            exception = None
            with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(printed):
                warnings.simplefilter("always")
                try:
                    with _time_limit(CELL_TIMEOUT):
                        exec(compile(code, f"{filename} [{index}: {title}]", "exec"), namespace)
                except _CellTimeout as timeout:
                    exception = ("Timeout", str(timeout))
                except BaseException as error:  # noqa: B036 (SystemExit too: a learner's cell may call exit())
                    exception = (type(error).__name__, str(error))
            shown = [(w.category.__name__, str(w.message)) for w in caught]
            outcomes.append(CellOutcome(title, printed.getvalue(), shown, exception))
    finally:
        _reset_global_state(library)
    return outcomes


def _reset_global_state(library):
    """Undo what a script may have switched on globally (grad mode, anomaly mode, default dtype)."""
    module = importlib.import_module(library)
    module.set_grad_enabled(True)
    module.autograd.set_detect_anomaly(False)
    if hasattr(module, "set_default_dtype"):
        module.set_default_dtype(module.float32)


def normalise(text):
    """A text as both libraries must show it: minigrad read as torch; no addresses, hints or C++ origins."""
    text = _CPP_ORIGIN.sub("", _HINT.sub("", text))
    text = text.replace("minigrad", "torch")
    return _ADDRESS.sub(" at 0x…", text)


def _decimals(number):
    mantissa = re.split(r"[eE]", number)[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def _numbers_agree(expected, got):
    """Two printed numbers agree when they differ by less than their last printed digit (or are equal)."""
    if expected == got:
        return True
    a, b = float(expected), float(got)
    exponent = re.split(r"[eE]", expected)
    scale = 10.0 ** int(exponent[1]) if len(exponent) == 2 else 1.0
    step = scale * 10.0 ** -min(_decimals(expected), _decimals(got))
    return abs(a - b) <= 1.01 * step or abs(a - b) <= 1e-5 * max(abs(a), abs(b))


def texts_agree(expected, got):
    """Equal after ``normalise``, runs of spaces read as one, numbers to their printed precision."""
    expected, got = _SPACES.sub(" ", normalise(expected)), _SPACES.sub(" ", normalise(got))
    if expected == got:
        return True
    if _NUMBER.split(expected) != _NUMBER.split(got):
        return False
    return all(_numbers_agree(a, b) for a, b in zip(_NUMBER.findall(expected), _NUMBER.findall(got)))


def differences(expected, got):
    """What differs between PyTorch's outcome of a cell and minigrad's (empty when they agree)."""
    found = []
    if not texts_agree(expected.output, got.output):
        found.append(f"printed output differs:\n--- PyTorch\n{normalise(expected.output)}"
                     f"--- minigrad\n{normalise(got.output)}")
    if (expected.exception is None) != (got.exception is None) or (
            expected.exception and (expected.exception[0] != got.exception[0]
                                    or not texts_agree(expected.exception[1], got.exception[1]))):
        found.append(f"exception differs:\n  PyTorch:  {expected.exception}\n  minigrad: {got.exception}")
    want = [(category, normalise(message)) for category, message in expected.warnings]
    have = [(category, normalise(message)) for category, message in got.warnings]
    if len(want) != len(have) or any(a[0] != b[0] or not texts_agree(a[1], b[1]) for a, b in zip(want, have)):
        found.append(f"warnings differ:\n  PyTorch:  {want}\n  minigrad: {have}")
    return found

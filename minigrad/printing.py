"""``repr(tensor)`` the way PyTorch prints it: ``tensor([1., 2.], requires_grad=True)``.

PyTorch's rules (its ``torch/_tensor_str.py``), which learners see in every output:

1. Big tensors (more than ``threshold`` = 1000 elements) are summarised: the first and last
   ``edgeitems`` = 3 entries of each dimension, with ``...`` between.
2. One format for all numbers, chosen from the non-zero finite values of what is shown:
   whole floats print as ``2.``; others with ``precision`` = 4 decimals (``3.5000``); scientific
   notation (``1.0000e-05``) when the largest is over 1000 times the smallest, over 1e8, or
   the smallest is under 1e-4 (unless ``set_printoptions(sci_mode=...)`` decides).
3. Every entry is right-aligned to the widest of those values (zeros, inf and nan do not
   count, which is why PyTorch prints ``tensor([-0.0000, 1.5000])`` unaligned).
4. Lines hold as many entries as fit in ``linewidth`` = 80 characters after the indent.
5. Suffixes follow: ``size=`` for an empty tensor that is not 1-D, ``dtype=`` when it is not
   the default of its kind, then ``grad_fn=<...>`` or ``requires_grad=True``; a suffix that
   would pass the line width starts a new line.
"""

import dataclasses
import math

import numpy as np

from . import dtypes


@dataclasses.dataclass
class PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """PyTorch's ``torch.set_printoptions``: how tensors are printed from now on.

    Args:
        precision: digits after the decimal point (default 4).
        threshold: more elements than this are summarised (default 1000).
        edgeitems: entries shown at each end of a summarised dimension (default 3).
        linewidth: characters per line (default 80).
        profile: "default", "short" or "full", a preset of the above.
        sci_mode: True or False to force or forbid scientific notation; None to choose.

    >>> import minigrad
    >>> minigrad.set_printoptions(precision=2)
    >>> minigrad.tensor([1.2345, 2.0])
    tensor([1.23, 2.00])
    >>> minigrad.set_printoptions(profile="default")
    """
    if profile == "default":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, 1000, 3, 80
    elif profile == "short":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
    elif profile == "full":
        PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, math.inf, 3, 80
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            setattr(PRINT_OPTS, name, value)
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    """One format for every entry of a tensor (rules 2 and 3)."""

    def __init__(self, array):
        self.floating = array.dtype.kind in "fc"
        self.int_mode, self.sci_mode, self.width = True, False, 1
        if not self.floating:
            self.width = max([len(self._plain(v)) for v in array.ravel().tolist()], default=1)
            return
        values = array.ravel().astype(np.float64)
        shown = values[np.isfinite(values) & (values != 0)]
        if shown.size:
            largest, smallest = np.abs(shown).max(), np.abs(shown).min()
            self.int_mode = bool(np.all(shown == np.ceil(shown)))
            self.sci_mode = (largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
                             if PRINT_OPTS.sci_mode is None else PRINT_OPTS.sci_mode)
            if self.sci_mode:
                self.width = max(len(f"{v:.{PRINT_OPTS.precision}e}") for v in shown.tolist())
            elif self.int_mode:
                self.width = max(len(f"{v:.0f}") + 1 for v in shown.tolist())  # +1: the trailing "."
            else:
                self.width = max(len(f"{v:.{PRINT_OPTS.precision}f}") for v in shown.tolist())

    @staticmethod
    def _plain(value):
        return str(value)

    def format(self, value):
        if not self.floating:
            text = self._plain(value)
        elif self.sci_mode:
            text = f"{value:{self.width}.{PRINT_OPTS.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        else:
            text = f"{value:.{PRINT_OPTS.precision}f}"
        return text.rjust(self.width)


def _summarised(array):
    """Only the entries a summarised print shows: ``edgeitems`` at each end of every dimension (rule 1)."""
    k = PRINT_OPTS.edgeitems
    for axis in range(array.ndim):
        if array.shape[axis] > 2 * k:
            array = np.concatenate([array.take(range(k), axis), array.take(range(-k, 0), axis)], axis)
    return array


def _body(array, indent, summarize, formatter):
    """The bracketed entries, nested and wrapped as PyTorch does (rule 4)."""
    k = PRINT_OPTS.edgeitems
    if array.ndim == 0:
        return formatter.format(array.item())
    if array.ndim == 1:
        per_line = max(1, int((PRINT_OPTS.linewidth - indent) // (formatter.width + 2)))
        if summarize and array.shape[0] > 2 * k:
            entries = ([formatter.format(v) for v in array[:k].tolist()] + [" ..."]
                       + [formatter.format(v) for v in array[-k:].tolist()])
        else:
            entries = [formatter.format(v) for v in array.tolist()]
        lines = [", ".join(entries[i:i + per_line]) for i in range(0, len(entries), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    if summarize and array.shape[0] > 2 * k:
        rows = ([_body(array[i], indent + 1, summarize, formatter) for i in range(k)] + ["..."]
                + [_body(array[i], indent + 1, summarize, formatter) for i in range(len(array) - k, len(array))])
    else:
        rows = [_body(row, indent + 1, summarize, formatter) for row in array]
    return "[" + ("," + "\n" * (array.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def _with_suffixes(text, suffixes, indent):
    """Append ``, suffix`` for each, starting a new line where one would pass the line width (rule 5)."""
    parts = [text]
    line_length = len(text) - text.rfind("\n") + 1  # as PyTorch counts it
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line_length += len(suffix) + 2
    return "".join(parts) + ")"


def _dtype_name(dtype):
    return f"minigrad.{np.dtype(dtype).name}"


def tensor_repr(t):
    array = t._data
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    # dtypes PyTorch does not name in a repr: the defaults of their kind
    implicit = (np.dtype(dtypes.default_float), dtypes.int64, dtypes.bool_)
    if array.size == 0:
        if array.ndim != 1:
            suffixes.append(f"size={tuple(array.shape)}")
        if array.dtype != np.dtype(dtypes.default_float):  # nothing to tell an int tensor by
            suffixes.append(f"dtype={_dtype_name(array.dtype)}")
        body = "[]"
    else:
        if array.dtype not in implicit:
            suffixes.append(f"dtype={_dtype_name(array.dtype)}")
        if array.dtype == np.float16:
            array = array.astype(np.float32)  # as PyTorch: half is printed through float
        summarize = array.size > PRINT_OPTS.threshold
        formatter = _Formatter(_summarised(array) if summarize else array)
        body = _body(array, indent, summarize, formatter)
    try:
        grad_fn = t.grad_fn
    except RuntimeError:  # a no_grad view changed in place since: PyTorch prints it so
        suffixes.append("grad_fn=<Invalid>")
        grad_fn = False
    if grad_fn:
        # PyTorch prints the bare class name: <CopySlices>, not <torch::autograd::CopySlices>
        suffixes.append(f"grad_fn=<{grad_fn.name().split('::')[-1]}>")
    elif grad_fn is None and t._requires_grad:
        suffixes.append("requires_grad=True")
    return _with_suffixes(prefix + body, suffixes, indent)

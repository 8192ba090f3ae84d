"""``repr(tensor)`` the way PyTorch prints it: ``tensor([1., 2.], requires_grad=True)``.

Numbers get one shared format: whole floats as ``2.``, others with four
decimals (``3.5000``), and scientific notation when magnitudes differ too
much for that; all right-aligned to one width.
"""

import numpy as np

from . import dtypes

# dtypes PyTorch does not name in a repr (the defaults of their kind)
_IMPLICIT_DTYPES = (dtypes.float32, dtypes.int64, dtypes.bool_)


def _element_formatter(array):
    if array.dtype.kind == "b":
        fmt = str
        texts = [str(v) for v in np.unique(array)]
    elif array.dtype.kind in "iu":
        fmt = str
        texts = [str(v) for v in (array.min(), array.max())] if array.size else ["0"]
    else:
        finite = array[np.isfinite(array)]
        magnitudes = np.abs(finite[finite != 0]) if finite.size else finite
        whole = finite.size == 0 or np.all(finite == np.round(finite))
        sci = magnitudes.size and (magnitudes.max() >= 1e8 or (not whole and (
            magnitudes.max() / magnitudes.min() > 1000 or magnitudes.min() < 1e-4)))
        if sci:
            def fmt(v):
                return f"{v:.4e}" if np.isfinite(v) else str(v)
        elif whole:
            def fmt(v):
                return f"{v:.0f}." if np.isfinite(v) else str(v)
        else:
            def fmt(v):
                return f"{v:.4f}" if np.isfinite(v) else str(v)
        shown = array if array.size <= 1000 else np.concatenate([array.ravel()[:3], array.ravel()[-3:]])
        texts = [fmt(v) for v in shown.ravel()]
    width = max((len(t) for t in texts), default=0)
    return lambda v: fmt(v).rjust(width)


def tensor_repr(t):
    array = t._data
    suffixes = []
    if array.size == 0 and array.ndim != 1:
        suffixes.append(f"size={tuple(array.shape)}")
    if array.dtype not in _IMPLICIT_DTYPES:
        suffixes.append(f"dtype=minigrad.{array.dtype.name}")
    if t.grad_fn is not None:
        # PyTorch prints the bare class name: <CopySlices>, not <torch::autograd::CopySlices>
        suffixes.append(f"grad_fn=<{t.grad_fn.name().split('::')[-1]}>")
    elif t._requires_grad:
        suffixes.append("requires_grad=True")
    prefix = "tensor("
    if array.size == 0:
        body = "[]"
    else:
        fmt = _element_formatter(array)
        body = np.array2string(array, formatter={"all": fmt}, separator=", ", prefix=prefix,
                               max_line_width=80, threshold=1000, edgeitems=3)
    return prefix + body + "".join(", " + s for s in suffixes) + ")"

"""``save`` and ``load``: write any object holding tensors (a ``state_dict``, a checkpoint dict) to a file.

The tutorials' ``torch.save(model.state_dict(), "model.pth")`` and
``model.load_state_dict(torch.load("model.pth", weights_only=True))`` work unchanged.

NB: PyTorch writes a zip archive of raw storages; minigrad writes a plain pickle, so files do not
move between the two libraries (within each they round-trip). ``weights_only=True`` (the default, as in
PyTorch 2.6+) refuses to unpickle anything but tensors, NumPy arrays, containers and plain values.
"""

import os
import pickle

__all__ = ["save", "load"]

# Globals a weights-only load may rebuild: minigrad's tensors and dtypes (and the NumPy arrays and
# classes they are made of; protocol 2 spells bytes with _codecs.encode, which PyTorch allows too), and
# the containers a state_dict or a checkpoint uses.
_SAFE_MODULE_PREFIXES = ("minigrad.", "numpy")
_SAFE_GLOBALS = {("collections", "OrderedDict"), ("_codecs", "encode"), ("builtins", "set"),
                 ("builtins", "frozenset"), ("builtins", "slice"), ("builtins", "complex"), ("builtins", "bytearray")}


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if module.startswith(_SAFE_MODULE_PREFIXES) or module == "minigrad" or (module, name) in _SAFE_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            "Weights only load failed. This file can still be loaded, to do so you have two options, do those "
            "steps only if you trust the source of the checkpoint. \n\t(1) Re-running `minigrad.load` with "
            "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. "
            "Do it only if you got the file from a trusted source.\n\tWeightsUnpickler error: Unsupported global: "
            f"GLOBAL {module}.{name} was not an allowed global by default.")


def _opened(f, mode):
    return open(f, mode) if isinstance(f, (str, os.PathLike)) else None


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Write ``obj`` to ``f`` (a path or a binary file object).

    >>> import io, minigrad
    >>> buffer = io.BytesIO()
    >>> minigrad.save({"w": minigrad.tensor([1.0, 2.0])}, buffer)
    >>> _ = buffer.seek(0)
    >>> minigrad.load(buffer)
    {'w': tensor([1., 2.])}
    """
    opened = _opened(f, "wb")
    try:
        pickle_module.dump(obj, opened or f, protocol=pickle_protocol)
    finally:
        if opened is not None:
            opened.close()


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read an object written by ``save``.

    Args:
        f: a path or a binary file object.
        map_location: None or the CPU (minigrad has no other device).
        pickle_module: the module to unpickle with (only with ``weights_only=False``).
        weights_only: True (the default) allows only tensors, arrays, containers and plain values.
        mmap: not implemented.

    Raises:
        pickle.UnpicklingError: for other objects when ``weights_only``.
    """
    if mmap:
        raise NotImplementedError("minigrad.load does not implement mmap=True")
    if map_location is not None and str(getattr(map_location, "type", map_location)).split(":")[0] != "cpu":
        raise NotImplementedError(f"minigrad runs on the CPU only: map_location={map_location!r}")
    if weights_only is None:
        weights_only = pickle_module is None
    opened = _opened(f, "rb")
    try:
        stream = opened or f
        if weights_only:
            if pickle_module is not None:
                raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
            return _WeightsUnpickler(stream, **pickle_load_args).load()
        return (pickle_module or pickle).load(stream, **pickle_load_args)
    finally:
        if opened is not None:
            opened.close()

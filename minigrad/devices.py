"""Where a tensor's memory lives: ``minigrad.device``, PyTorch's ``torch.device``.

minigrad keeps every tensor in a NumPy array, so the only device it has is the
CPU. Code written for PyTorch still names devices (``device="cuda" if
torch.cuda.is_available() else "cpu"``, ``model.to(device)``), so the names
are understood: ``"cpu"`` works everywhere, and ``"cuda"`` fails as PyTorch
fails on a machine without a GPU.
"""

import re

from . import messages

# The device types PyTorch knows, in the order its message lists them.
DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?\Z")


class device:  # noqa: N801  (PyTorch's class name: torch.device)
    """A device name: ``device("cpu")``, ``device("cuda:0")``, ``device("cuda", 0)``.

    Attributes:
        type: ``"cpu"``, ``"cuda"``, ...
        index: the device number, or None.

    >>> device("cpu")
    device(type='cpu')
    >>> str(device("cuda", 1)), device("cuda:1").index
    ('cuda:1', 1)
    """

    __slots__ = ("type", "index")

    def __init__(self, type=None, index=None):  # noqa: A002  (PyTorch's keyword)
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            # PyTorch reads a bare number as an index on its accelerator, which needs a GPU.
            raise RuntimeError(messages.NO_ACCELERATOR)
        elif isinstance(type, str):
            if not type:
                raise RuntimeError(messages.EMPTY_DEVICE_STRING)
            match = _DEVICE_STRING.match(type)
            if match is None:
                raise RuntimeError(messages.INVALID_DEVICE_STRING.format(string=type))
            if match.group(1) not in DEVICE_TYPES:
                raise RuntimeError(messages.UNKNOWN_DEVICE_TYPE.format(types=", ".join(DEVICE_TYPES), string=type))
            if match.group(2) is not None:
                if index is not None:
                    raise RuntimeError(messages.INDEX_GIVEN_TWICE.format(string=type))
                index = int(match.group(2))
            type = match.group(1)
        else:
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({_type_name(type)}), but expected one of:\n * (minigrad.device device)\n"
                            f"      didn't match because some of the arguments have invalid types: "
                            f"(!{_type_name(type)}!)\n * (str type, int index = -1)\n")
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = type, index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        # As PyTorch: a device is never equal to a string (device("cpu") == "cpu" is False).
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))


def _type_name(value):
    return "NoneType" if value is None else type(value).__name__


CPU = device("cpu")


def check(where):
    """``where`` (a device, a string, or None) as a device minigrad can put a tensor on.

    Returns:
        ``CPU`` for None and every CPU device.

    Raises:
        AssertionError: for CUDA, as PyTorch built without CUDA.
        RuntimeError / NotImplementedError: for the other device types.
    """
    if where is None or where is CPU or where == "cpu":
        return CPU
    where = device(where)
    if where.type == "cpu":
        return CPU
    if where.type == "cuda":
        raise AssertionError(messages.NO_CUDA)
    if where.type == "mps":
        raise RuntimeError(messages.NO_MPS)
    raise NotImplementedError(f"minigrad keeps every tensor in NumPy on the CPU; it has no '{where.type}' device")


class layout:  # noqa: N801  (PyTorch's class name: torch.layout)
    """How a tensor's elements sit in memory (PyTorch's ``torch.layout``); minigrad has ``strided`` only.

    >>> strided
    minigrad.strided
    """

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"minigrad.{self._name}"


strided = layout("strided")


class memory_format:  # noqa: N801  (PyTorch's class name: torch.memory_format)
    """In what order a new tensor's elements are laid out (PyTorch's ``torch.memory_format``).

    >>> preserve_format
    minigrad.preserve_format
    """

    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return f"minigrad.{self._name}"


contiguous_format = memory_format("contiguous_format")
# NB: minigrad lays every new tensor out in C order, so ``preserve_format`` (the default of the
# ``*_like`` factories) does too; PyTorch keeps a non-contiguous input's strides.
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")


def check_options(where=None, layout=None, pin_memory=False, memory_format=None):
    """The keywords factories take besides ``dtype``: ``device=``, ``layout=``, ``pin_memory=``,
    ``memory_format=``.

    Raises:
        PyTorch's errors for a GPU or pinned memory; NotImplementedError for another layout
        or for channels_last (minigrad lays out new tensors in C order only).
    """
    if memory_format not in (None, contiguous_format, preserve_format):
        raise NotImplementedError(f"minigrad lays out new tensors in C order only, not {memory_format}")
    if where is not None:
        check(where)
    if layout is not None and layout is not strided:
        raise NotImplementedError(f"minigrad keeps tensors strided (dense) only, not {layout}")
    if pin_memory:
        raise RuntimeError(messages.PIN_MEMORY)

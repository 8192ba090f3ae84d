"""Image layers: ``Conv2d`` (learned 2-D filters) and ``MaxPool2d`` (the largest value of each window)."""

import math

from ..creation import empty
from . import functional as F
from . import init
from .layers import _factory_kwargs
from .module import Module
from .parameter import Parameter


def _pair(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value, value)


#: PyTorch's message prints this set as Python orders it (which changes with the process's hash seed).
_PADDING_STRINGS = {"same", "valid"}


class Conv2d(Module):
    """2-D convolution: ``out_channels`` filters of ``in_channels x kernel_size`` slid over the image.

    Initialised as PyTorch does (as ``Linear``, with fan_in = in_channels * kh * kw).

    >>> import minigrad
    >>> conv = minigrad.nn.Conv2d(1, 6, 5)
    >>> conv
    Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
    >>> conv(minigrad.ones(2, 1, 32, 32)).shape
    minigrad.Size([2, 6, 28, 28])
    """

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        dtype = _factory_kwargs(device, dtype)
        if isinstance(padding, str):  # (PyTorch's checks of a padding string, made here at construction)
            if padding not in _PADDING_STRINGS:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {_PADDING_STRINGS}")
            if padding == "same" and _pair(stride) != (1, 1):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if _pair(dilation) != (1, 1) or groups != 1 or padding_mode != "zeros":
            raise NotImplementedError("minigrad's Conv2d does not implement dilation, groups or padding_mode")
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _pair(kernel_size), _pair(stride)
        self.padding = padding if isinstance(padding, str) else _pair(padding)
        self.dilation, self.groups, self.padding_mode = (1, 1), groups, padding_mode
        self.weight = Parameter(empty(out_channels, in_channels, *self.kernel_size, dtype=dtype))
        if bias:
            self.bias = Parameter(empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """PyTorch's draws, in PyTorch's order: kaiming_uniform_(a=sqrt(5)) for the weight, then the bias."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding)

    def extra_repr(self):
        text = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0, 0):
            text += f", padding={self.padding!r}" if isinstance(self.padding, str) else f", padding={self.padding}"
        if self.bias is None:
            text += ", bias=False"
        return text


class MaxPool2d(Module):
    """The maximum of each ``kernel_size`` window, moving by ``stride`` (default: the window size).

    >>> import minigrad
    >>> minigrad.nn.MaxPool2d(2)
    MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)
    """

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")

"""``minigrad.nn.init``: fill a parameter in place with its initial values, as ``torch.nn.init`` does.

Every random fill goes through ``Tensor.uniform_`` / ``Tensor.normal_``, so it draws from
minigrad's generator exactly as PyTorch draws from its own: after ``manual_seed(0)``,
``nn.Linear(3, 2)`` holds PyTorch's very numbers. The functions run under ``no_grad``
(an initialisation is not part of any graph) and return the tensor they filled.
"""

import math
import warnings

from ..grad_mode import no_grad

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "ones_", "zeros_", "xavier_uniform_",
           "xavier_normal_", "kaiming_uniform_", "kaiming_normal_"]

_LINEAR_FNS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
               "conv_transpose3d")


def calculate_gain(nonlinearity, param=None):
    """The factor that keeps activations' variance steady through ``nonlinearity``.

    Args:
        nonlinearity: "linear", "sigmoid", "tanh", "relu", "leaky_relu", "selu" or a conv's name.
        param: the negative slope of "leaky_relu" (default 0.01).

    Raises:
        ValueError: for an unknown nonlinearity or a slope that is not a number.

    >>> calculate_gain("tanh")
    1.6666666666666667
    """
    if nonlinearity in _LINEAR_FNS or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    """``(fan_in, fan_out)`` of a weight: (in, out) features times the receptive field (dims 2 and on).

    >>> import minigrad
    >>> _calculate_fan_in_and_fan_out(minigrad.empty(5, 3))
    (3, 5)
    """
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return tensor.size(1) * receptive_field_size, tensor.size(0) * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    """Fill ``tensor`` with numbers drawn uniformly from [a, b).

    >>> import minigrad
    >>> w = uniform_(minigrad.empty(2, 3), -0.1, 0.1)
    >>> bool((w.abs() <= 0.1).all())
    True
    """
    with no_grad():
        return tensor.uniform_(a, b, generator=generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    """Fill ``tensor`` with numbers drawn from N(mean, std**2).

    >>> import minigrad
    >>> normal_(minigrad.empty(2, 3)).shape
    minigrad.Size([2, 3])
    """
    with no_grad():
        return tensor.normal_(mean, std, generator=generator)


def constant_(tensor, val):
    """Fill ``tensor`` with ``val``.

    >>> import minigrad
    >>> constant_(minigrad.empty(2), 0.5)
    tensor([0.5000, 0.5000])
    """
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor):
    """Fill ``tensor`` with ones.

    >>> import minigrad
    >>> ones_(minigrad.empty(2))
    tensor([1., 1.])
    """
    with no_grad():
        return tensor.fill_(1.0)


def zeros_(tensor):
    """Fill ``tensor`` with zeros.

    >>> import minigrad
    >>> zeros_(minigrad.ones(2))
    tensor([0., 0.])
    """
    with no_grad():
        return tensor.zero_()


def xavier_uniform_(tensor, gain=1.0, generator=None):
    """Glorot's uniform init: U(-a, a) with ``a = gain * sqrt(6 / (fan_in + fan_out))``.

    >>> import minigrad
    >>> w = xavier_uniform_(minigrad.empty(4, 2))
    >>> bool((w.abs() <= 1.0).all())
    True
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std  # the bound of a uniform with that standard deviation
    return uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    """Glorot's normal init: N(0, std**2) with ``std = gain * sqrt(2 / (fan_in + fan_out))``.

    >>> import minigrad
    >>> xavier_normal_(minigrad.empty(4, 2)).shape
    minigrad.Size([4, 2])
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return normal_(tensor, 0.0, std, generator)


def _zero_element(tensor):
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=3)
        return True
    return False


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He's uniform init: U(-bound, bound), ``bound = gain * sqrt(3 / fan)``.

    ``nn.Linear`` uses ``a=sqrt(5)``, which comes down to ``bound = 1 / sqrt(fan_in)``.

    >>> import minigrad
    >>> w = kaiming_uniform_(minigrad.empty(3, 4), a=5 ** 0.5)
    >>> bool((w.abs() <= 0.5).all())
    True
    """
    if _zero_element(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std  # the bound of a uniform with that standard deviation
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    """He's normal init: N(0, std**2), ``std = gain / sqrt(fan)``.

    >>> import minigrad
    >>> kaiming_normal_(minigrad.empty(3, 4), nonlinearity="relu").shape
    minigrad.Size([3, 4])
    """
    if _zero_element(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return normal_(tensor, 0, std, generator)

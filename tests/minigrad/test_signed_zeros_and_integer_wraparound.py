"""Two corners where NumPy's own rules differ from PyTorch's, checked against PyTorch.

1. Ties in max/min: PyTorch keeps the first argument (relu(-0.) is -0., maximum(-0., 0.) is -0.),
   NumPy its second; and the sign of nan is 0 in PyTorch, nan in NumPy.
2. A Python int beside an integer tensor: PyTorch casts it to the tensor's dtype, wrapping around
   (uint8 + 300 adds 44); NumPy 2 raises OverflowError. Written into a tensor (x[i] = v, fill_,
   full, masked_fill, clamp) it must fit, except that a negative number wraps into uint8 as in C++.
"""

import pytest

import minigrad

SPECIAL = [-0.0, 0.0, float("nan"), -1.0, 2.0, float("inf"), -float("inf")]

TIES = {
    "relu": lambda lib, t: t.relu(),
    "clamp(min=0)": lambda lib, t: t.clamp(min=0),
    "clamp(max=0)": lambda lib, t: t.clamp(max=0),
    "clamp(-0., 0.)": lambda lib, t: t.clamp(-0.0, 0.0),
    "clamp(2, 1)": lambda lib, t: t.clamp(2, 1),
    "clamp_min": lambda lib, t: lib.clamp_min(t, 0),
    "clamp with tensors": lambda lib, t: t.clamp(lib.tensor(0.0), lib.tensor(-0.0)),
    "maximum": lambda lib, t: lib.maximum(t, lib.tensor(0.0)),
    "minimum": lambda lib, t: lib.minimum(t, lib.tensor(-0.0)),
    "sign": lambda lib, t: t.sign(),
    "sgn": lambda lib, t: lib.sgn(t),
    "nn.ReLU": lambda lib, t: lib.nn.ReLU()(t),
}


def _bits(t):
    """Values with the sign of each zero (repr shows -0.) and nan."""
    return repr(t.tolist())


@pytest.mark.parametrize("name", TIES)
def test_ties_signed_zeros_and_nan_are_pytorchs(name, torch):
    op = TIES[name]
    mine = op(minigrad, minigrad.tensor(SPECIAL))
    theirs = op(torch, torch.tensor(SPECIAL))
    assert _bits(mine) == _bits(theirs)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64"])
@pytest.mark.parametrize("number", [300, -1, 2 ** 31, 2 ** 40, 2 ** 63 - 1, 2 ** 63, 2 ** 64, -2 ** 63 - 1])
def test_a_python_int_beside_an_integer_tensor_wraps_as_in_pytorch(dtype, number, torch):
    def outcome(lib):
        t = lib.tensor([1, 2], dtype=getattr(lib, dtype))
        seen = []
        for op in (lambda: t + number, lambda: number - t, lambda: t > number, lambda: t == number, lambda: t * number):
            try:
                result = op()
            except OverflowError as error:
                seen.append(("OverflowError", str(error)))
            else:
                seen.append((result.tolist(), str(result.dtype).split(".")[-1]))
        return seen

    assert outcome(minigrad) == outcome(torch)


WRITES = {
    "x[0] = v": lambda lib, t, v: t.__setitem__(0, v),
    "fill_": lambda lib, t, v: t.fill_(v),
    "full": lambda lib, t, v: lib.full((1,), v, dtype=t.dtype),
    "masked_fill": lambda lib, t, v: t.masked_fill(t > 0, v),
    "clamp(max=v)": lambda lib, t, v: t.clamp(max=v),
    "where": lambda lib, t, v: lib.where(t > 1, t, v),
}


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int32"])
@pytest.mark.parametrize("number", [-1, -255, -256, 300, 2 ** 40])
@pytest.mark.parametrize("name", WRITES)
def test_a_number_written_into_an_integer_tensor_fits_or_raises_as_in_pytorch(name, number, dtype, torch):
    def outcome(lib):
        t = lib.tensor([1, 2], dtype=getattr(lib, dtype))
        try:
            result = WRITES[name](lib, t, number)
        except RuntimeError as error:
            return "RuntimeError", str(error).split("\n\n")[0]
        return (t if result is None else result).tolist()

    assert outcome(minigrad) == outcome(torch)

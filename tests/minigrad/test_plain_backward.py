"""minigrad/plain_backward.py: a backward pass without create_graph runs its formulas on arrays.

What must hold: the gradients are exactly the ones the Tensor ops give (the recorded pass
computes the same formulas with them), a PlainGradient's operators give what the Tensor
operators give (value, dtype, shape) or hand the case to them, and no user code ever
receives a PlainGradient.
"""

import numpy as np
import pytest

import minigrad
from minigrad.plain_backward import PlainGradient, gradient
from op_table import OPS
from test_ops_table import CASES, _forward, _rng


@pytest.mark.parametrize("case", CASES)
def test_plain_and_recorded_passes_give_the_same_bits(case):
    arrays = [a.astype(np.float32) for a in case.draw(_rng(case))]
    leaves, out = _forward(case, arrays)
    v = minigrad.tensor(_rng(case, "v").standard_normal(out.shape).astype(np.float32))
    plain = minigrad.autograd.grad(out, leaves, v, retain_graph=True, allow_unused=True)
    recorded = minigrad.autograd.grad(out, leaves, v, create_graph=True, allow_unused=True)
    for got, want in zip(plain, recorded):
        assert (got is None) == (want is None)
        if got is not None:
            assert type(got) is minigrad.Tensor and got.dtype == want.dtype
            np.testing.assert_array_equal(got.numpy(), want.detach().numpy())


def test_the_table_exercises_the_plain_methods():
    # The cases above reach every shortcut: a formula or the engine calls each of them.
    called = set()
    for name in ("mT", "transpose", "sum", "expand", "reshape", "unsqueeze", "sum_to_size", "exp",
                 "__mul__", "__rmul__", "__add__", "__sub__", "__rsub__", "__truediv__", "__neg__", "__matmul__"):
        assert name in PlainGradient.__dict__
    real = {name: PlainGradient.__dict__[name] for name in ("sum", "expand", "reshape", "unsqueeze", "sum_to_size", "exp",
                                                            "transpose", "__matmul__", "__neg__")}
    try:
        for name, method in real.items():
            def spy(self, *args, _name=name, _method=method, **kwargs):
                called.add(_name)
                return _method(self, *args, **kwargs)
            setattr(PlainGradient, name, spy)
        for case in OPS:
            arrays = case.draw(_rng(case))
            leaves, out = _forward(case, arrays)
            out.backward(minigrad.ones_like(out))
    finally:
        for name, method in real.items():
            setattr(PlainGradient, name, method)
    assert called == set(real)


ARRAY = np.array([[1.5, -2.0, 3.0], [0.5, 4.0, -1.0]], dtype=np.float32)
OPERANDS = [
    ("same dtype", lambda: minigrad.tensor(ARRAY[::-1].copy())),
    ("float64 tensor", lambda: minigrad.tensor(ARRAY.astype(np.float64))),
    ("int tensor", lambda: minigrad.tensor([[1, 2, 3], [4, 5, 6]])),
    ("0-d float32", lambda: minigrad.tensor(2.5)),
    ("python float", lambda: 0.1),
    ("python int", lambda: 3),
    ("bool", lambda: True),
    ("numpy float64", lambda: np.float64(0.1)),
    ("numpy float32", lambda: np.float32(0.1)),
]
OPERATORS = ["__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__"]


@pytest.mark.parametrize("operator", OPERATORS)
@pytest.mark.parametrize("operand_name, make", OPERANDS, ids=[name for name, _ in OPERANDS])
def test_an_operator_gives_what_the_tensor_operator_gives(operator, operand_name, make):
    with minigrad.no_grad():
        want = getattr(minigrad.Tensor, operator)(minigrad.tensor(ARRAY), make())
        got = getattr(gradient(ARRAY.copy()), operator)(make())
    assert got is not NotImplemented and want is not NotImplemented
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_methods_give_what_the_tensor_methods_give():
    x = ARRAY.reshape(2, 3, 1)
    calls = [("mT", None), ("transpose", (0, 2)), ("transpose", (-1, 1)), ("sum", ()),
             ("sum", (1,)), ("sum", (-1, True)), ("expand", (2, 3, 4)), ("expand", ((5, 2, 3, 1),)),
             ("reshape", (3, 2)), ("reshape", ((-1,),)), ("unsqueeze", (0,)), ("unsqueeze", (-1,)),
             ("sum_to_size", (3, 1)), ("sum_to_size", ((1, 3, 1),)), ("__neg__", ()), ("exp", ())]
    for name, args in calls:
        array = x
        with minigrad.no_grad():
            plain, tensor = gradient(array.copy()), minigrad.tensor(array)
            if args is None:
                got, want = getattr(plain, name), getattr(tensor, name)
            else:
                got, want = getattr(plain, name)(*args), getattr(tensor, name)(*args)
        assert got.dtype == want.dtype and got.shape == want.shape, (name, args)
        np.testing.assert_array_equal(got.numpy(), want.numpy(), err_msg=f"{name}{args}")


def test_errors_are_the_tensor_ops_errors():
    with pytest.raises(RuntimeError, match="must match the existing size"):
        gradient(ARRAY).expand(4, 4)
    with pytest.raises(RuntimeError, match="is invalid for input of size 6"):
        gradient(ARRAY).reshape(4)
    with pytest.raises(IndexError, match="Dimension out of range"):
        gradient(ARRAY).unsqueeze(5)
    with pytest.raises(RuntimeError, match="is not expandable to size"):
        gradient(ARRAY).sum_to_size(4)


def test_user_code_never_receives_a_plain_gradient():
    seen = []

    def look(*values):
        for value in values:
            for item in (value if isinstance(value, tuple) else (value,)):
                if item is not None:
                    seen.append(type(item))

    class Double(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            look(grad)
            return grad * 2

    layer = minigrad.nn.Linear(3, 2)
    layer.register_full_backward_hook(lambda module, grad_input, grad_output: look(grad_input, grad_output))
    x = minigrad.tensor(ARRAY, requires_grad=True)
    x.register_hook(lambda grad: look(grad))
    x.register_post_accumulate_grad_hook(lambda leaf: look(leaf.grad))
    h = Double.apply(x).exp()
    h.retain_grad()
    h.register_hook(lambda grad: look(grad))
    h.grad_fn.register_prehook(lambda grad_outputs: look(grad_outputs))
    h.grad_fn.register_hook(lambda grad_inputs, grad_outputs: look(grad_inputs, grad_outputs))
    out = layer(h).sum()
    (gx,) = minigrad.autograd.grad(out, [x], retain_graph=True)
    look(gx)
    steps = list(minigrad.autograd.graph.iter_backward([out], [minigrad.tensor(1.0)], retain_graph=True))
    for step in steps:
        look(step.grad_outputs, step.grad_inputs, *[grad for _, grad in step.captured])
    out.backward()
    look(x.grad, h.grad, layer.weight.grad)
    assert seen and set(seen) == {minigrad.Tensor}
    assert len(seen) > 20


def test_create_graph_passes_hand_formulas_plain_tensors():
    received = []

    class Spy(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            return grad

    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = (Spy.apply(x) ** 3).sum()
    original = minigrad.ops.elementwise.Pow.backward

    def spying(self, grad):
        received.append(type(grad))
        return original(self, grad)

    minigrad.ops.elementwise.Pow.backward = spying
    try:
        (g,) = minigrad.autograd.grad(y, x, create_graph=True)
        g.sum().backward()  # a second derivative: the first pass recorded its formulas
        y2 = (x ** 3).sum()
        y2.backward()
    finally:
        minigrad.ops.elementwise.Pow.backward = original
    np.testing.assert_allclose(x.grad.numpy(), 6 * np.array([1.0, 2.0]) + 3 * np.array([1.0, 4.0]))
    assert received[0] is minigrad.Tensor and received[-1] is PlainGradient

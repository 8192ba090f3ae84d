"""The graph as objects: node names, next_functions, AccumulateGrad, metadata and saved tensors."""


import numpy as np
import pytest

import minigrad
from torch_parity import graph_names

ACCUMULATE_GRAD = "torch::autograd::AccumulateGrad"


def leaf(values):
    return minigrad.tensor(values, requires_grad=True)


# --- names of common ops, against PyTorch ----------------------------------------------------

# Each takes (lib, x, w, v) with x, w of shape (2, 3) and v of shape (3,), all requiring grad.
# Batched matmul is left out on purpose: PyTorch's result node there is UnsafeViewBackward0,
# an accident of how its C++ matmul folds batches into bmm.
EXPRESSIONS = {
    "add": lambda lib, x, w, v: x + w,
    "add_scalar": lambda lib, x, w, v: x + 1.0,
    "radd": lambda lib, x, w, v: 1.0 + x,
    "sub": lambda lib, x, w, v: x - w,
    "rsub": lambda lib, x, w, v: 1.0 - x,
    "mul": lambda lib, x, w, v: x * w,
    "mul_scalar": lambda lib, x, w, v: x * 2.0,
    "div": lambda lib, x, w, v: x / w,
    "div_scalar": lambda lib, x, w, v: x / 2.0,
    "rdiv": lambda lib, x, w, v: 2.0 / x,
    "neg": lambda lib, x, w, v: -x,
    "pow_scalar": lambda lib, x, w, v: x ** 2,
    "pow_tensor": lambda lib, x, w, v: x ** w,
    "rpow": lambda lib, x, w, v: 2.0 ** x,
    "matmul_2d": lambda lib, x, w, v: x @ w.T,
    "matmul_mv": lambda lib, x, w, v: x @ v,
    "matmul_dot": lambda lib, x, w, v: v @ v,
    "abs": lambda lib, x, w, v: x.abs(),
    "exp": lambda lib, x, w, v: x.exp(),
    "log": lambda lib, x, w, v: x.log(),
    "sqrt": lambda lib, x, w, v: x.sqrt(),
    "sin": lambda lib, x, w, v: x.sin(),
    "cos": lambda lib, x, w, v: x.cos(),
    "tanh": lambda lib, x, w, v: x.tanh(),
    "sigmoid": lambda lib, x, w, v: x.sigmoid(),
    "relu": lambda lib, x, w, v: x.relu(),
    "clamp": lambda lib, x, w, v: x.clamp(0.5, 1.5),
    "clamp_min": lambda lib, x, w, v: x.clamp(min=0.5),
    "maximum": lambda lib, x, w, v: lib.maximum(x, w),
    "minimum": lambda lib, x, w, v: lib.minimum(x, w),
    "where": lambda lib, x, w, v: lib.where(x > w, x, w),
    "sum": lambda lib, x, w, v: x.sum(),
    "sum_dim": lambda lib, x, w, v: x.sum(dim=1),
    "mean": lambda lib, x, w, v: x.mean(),
    "mean_dim": lambda lib, x, w, v: x.mean(dim=0),
    "var": lambda lib, x, w, v: x.var(),
    "amax": lambda lib, x, w, v: x.amax(dim=1),
    "max": lambda lib, x, w, v: x.max(),
    "max_dim": lambda lib, x, w, v: x.max(dim=1).values,
    "logsumexp": lambda lib, x, w, v: x.logsumexp(dim=1),
    "softmax": lambda lib, x, w, v: x.softmax(dim=1),
    "log_softmax": lambda lib, x, w, v: x.log_softmax(dim=1),
    "norm": lambda lib, x, w, v: x.norm(),
    "reshape": lambda lib, x, w, v: x.reshape(3, 2),
    "view": lambda lib, x, w, v: x.view(6),
    "flatten": lambda lib, x, w, v: x.flatten(),
    "transpose": lambda lib, x, w, v: x.transpose(0, 1),
    "T": lambda lib, x, w, v: x.T,
    "permute": lambda lib, x, w, v: x.permute(1, 0),
    "unsqueeze": lambda lib, x, w, v: x.unsqueeze(0),
    "squeeze": lambda lib, x, w, v: x.unsqueeze(0).squeeze(0),
    "expand": lambda lib, x, w, v: v.expand(2, 3),
    "cat": lambda lib, x, w, v: lib.cat([x, w]),
    "stack": lambda lib, x, w, v: lib.stack([x, w]),
    "index_int": lambda lib, x, w, v: x[0],
    "index_slice": lambda lib, x, w, v: x[:, 1:],
    "index_array": lambda lib, x, w, v: v[lib.tensor([0, 2])],
    "index_mask": lambda lib, x, w, v: x[x > 1.0],
    "clone": lambda lib, x, w, v: x.clone(),
    "mse_loss": lambda lib, x, w, v: lib.nn.functional.mse_loss(x, w),
    "cross_entropy": lambda lib, x, w, v: lib.nn.functional.cross_entropy(x, lib.tensor([0, 2])),
    "linear": lambda lib, x, w, v: lib.nn.functional.linear(x, w, v[:2]),
}


def make_inputs(lib):
    x = lib.tensor([[0.5, 1.0, 2.0], [1.5, 0.25, 3.0]], requires_grad=True)
    w = lib.tensor([[1.0, 0.75, 0.5], [2.0, 1.25, 0.5]], requires_grad=True)
    v = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    return x, w, v


@pytest.mark.parametrize("op", list(EXPRESSIONS))
def test_grad_fn_name_matches_torch(op, torch):
    """The grad_fn of a common op has PyTorch's name (e.g. MulBackward0, PowBackward1, MmBackward0)."""
    got = EXPRESSIONS[op](minigrad, *make_inputs(minigrad)).grad_fn.name()
    expected = EXPRESSIONS[op](torch, *make_inputs(torch)).grad_fn.name()
    assert got == expected


IN_PLACE = {
    "setitem": lambda lib, h: h.__setitem__(0, 5.0),
    "fill_": lambda lib, h: h.fill_(2.0),
    "zero_": lambda lib, h: h.zero_(),
    "copy_": lambda lib, h: h.copy_(lib.tensor([1.0, 2.0, 3.0])),
    "clamp_": lambda lib, h: h.clamp_(0.0, 1.0),
    "add_": lambda lib, h: h.add_(1.0),
    "mul_": lambda lib, h: h.mul_(2.0),
}


@pytest.mark.parametrize("op", list(IN_PLACE))
def test_in_place_grad_fn_name_matches_torch(op, torch):
    """After an in-place op on a non-leaf, its grad_fn has PyTorch's name (CopySlices, FillBackward2, ...)."""

    def run(lib):
        h = lib.tensor([1.0, 2.0, 3.0], requires_grad=True) * 1.0
        IN_PLACE[op](lib, h)
        return h.grad_fn.name()

    assert run(minigrad) == run(torch)


def test_accumulate_grad_name():
    """A leaf's node is named 'torch::autograd::AccumulateGrad', PyTorch's name."""
    x = leaf([1.0])
    assert (x * 2.0).grad_fn.next_functions[0][0].name() == ACCUMULATE_GRAD


def test_leaf_and_constant_have_no_grad_fn():
    """Leaves (requiring grad or not) have grad_fn None and is_leaf True; results are not leaves."""
    x, c = leaf([1.0]), minigrad.tensor([1.0])
    assert x.grad_fn is None and x.is_leaf
    assert c.grad_fn is None and c.is_leaf
    assert not (x * c).is_leaf


# --- next_functions ----------------------------------------------------------------------------


def test_next_functions_is_a_tuple_of_node_index_pairs():
    """MulBackward0 of x * w has ((AccumulateGrad(x), 0), (AccumulateGrad(w), 0))."""
    x, w = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    nf = (x * w).grad_fn.next_functions
    assert type(nf) is tuple and len(nf) == 2
    (ax, ix), (aw, iw) = nf
    assert (ix, iw) == (0, 0)
    assert ax.name() == aw.name() == ACCUMULATE_GRAD
    assert ax.variable is x and aw.variable is w


def test_constant_input_gives_none_edge(torch):
    """x * c with c not requiring grad: next_functions[1] is (None, 0), as in PyTorch."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        c = lib.tensor([3.0, 4.0])
        (first, n0), (second, n1) = (x * c).grad_fn.next_functions
        return first.name(), n0, second, n1

    assert run(minigrad) == run(torch) == (ACCUMULATE_GRAD, 0, None, 0)


def test_next_functions_follow_the_chain():
    """exp(2x + 1).sum(): Sum -> Exp -> Add -> Mul -> AccumulateGrad."""
    x = leaf([1.0])
    node = ((x * 2.0 + 1.0).exp()).sum().grad_fn
    names = []
    while node is not None:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    assert names == ["SumBackward0", "ExpBackward0", "AddBackward0", "MulBackward0", ACCUMULATE_GRAD]


def test_next_functions_structure_matches_torch(torch):
    """The whole graph of a small expression, as names and edge indices, is PyTorch's."""

    def describe(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        c = lib.tensor([0.5, 0.5])
        y = ((x * w).exp() + x / c - w.sum()).sum()
        lines, stack = [], [(y.grad_fn, 0)]
        while stack:  # a tree walk; this graph is small
            node, depth = stack.pop()
            lines.append("  " * depth + node.name())
            for child, nr in reversed(node.next_functions):
                if child is None:
                    lines.append("  " * (depth + 1) + f"None {nr}")
                else:
                    stack.append((child, depth + 1))
        return lines

    assert describe(minigrad) == describe(torch)


def test_one_leaf_used_twice_shares_one_accumulate_grad_node(torch):
    """x*x and x + 1 in one graph both point at the same AccumulateGrad object for x, as in PyTorch."""

    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        a = x * x
        b = x + 1.0
        y = a + b
        n1, n2 = a.grad_fn.next_functions
        n3 = b.grad_fn.next_functions[0]
        return n1[0] is n2[0], n1[0] is n3[0], y.grad_fn.next_functions[0][0] is a.grad_fn

    assert run(minigrad) == run(torch) == (True, True, True)


def test_accumulate_grad_node_is_shared_across_graphs_while_alive(torch):
    """Two separate expressions on x, both alive, reach the same AccumulateGrad object (PyTorch keeps one per leaf)."""

    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        a = x * 2.0
        b = x.exp()
        return a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0]

    assert run(minigrad) == run(torch)


def test_accumulate_grad_node_lives_only_while_a_graph_holds_it(torch):
    """The leaf knows its AccumulateGrad weakly, as PyTorch's does: once no graph holds it, it
    is gone (with a hook on it), and the next op makes a new one; the leaf itself lives on."""
    import weakref

    def run(lib, gone=None):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        calls = []
        y = x * 2.0
        node = y.grad_fn.next_functions[0][0]
        node.register_prehook(lambda grads: calls.append("old"))
        if gone is not None:
            gone.append(weakref.ref(node))  # (PyTorch's nodes take no weak references)
        del node, y
        z = (x * 3.0).sum()
        fresh = z.grad_fn.next_functions[0][0].next_functions[0][0]
        z.backward()
        return fresh.variable is x, calls, x.grad.tolist()

    gone = []
    assert run(minigrad, gone) == run(torch) == (True, [], [3.0, 3.0])
    assert gone[0]() is None


def test_accumulate_grad_variable_is_the_leaf():
    """AccumulateGrad.variable is the leaf object itself, not a copy."""
    x = leaf([1.0])
    node = x.exp().grad_fn.next_functions[0][0]
    assert node.variable is x


def test_accumulate_grad_has_no_next_functions():
    """AccumulateGrad is a sink: next_functions == ()."""
    x = leaf([1.0])
    assert (x * 2.0).grad_fn.next_functions[0][0].next_functions == ()


# --- metadata -----------------------------------------------------------------------------------


def test_metadata_is_a_dict_that_persists():
    """grad_fn.metadata starts as an empty dict; what you store stays on the node."""
    y = leaf([1.0]) * 2.0
    assert y.grad_fn.metadata == {}
    assert isinstance(y.grad_fn.metadata, dict)
    y.grad_fn.metadata["label"] = "double"
    assert y.grad_fn.metadata == {"label": "double"}


def test_metadata_is_per_node():
    """Two nodes have two separate metadata dicts."""
    x = leaf([1.0])
    a, b = x * 2.0, x * 3.0
    a.grad_fn.metadata["k"] = 1
    assert b.grad_fn.metadata == {}


# --- saved tensors ------------------------------------------------------------------------------


def test_saved_self_and_other_are_the_inputs(torch):
    """MulBackward0 of x * w saves x as _saved_self and w as _saved_other (the very objects, as PyTorch)."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        w = lib.tensor([3.0, 4.0], requires_grad=True)
        node = (x * w).grad_fn
        return node._saved_self is x, node._saved_other is w

    assert run(minigrad) == run(torch) == (True, True)


@pytest.mark.parametrize("op", ["remainder", "fmod"])
def test_remainder_and_fmod_keep_their_inputs_only_for_the_divisors_gradient(op, torch):
    """Only grad_other reads self and other (-grad * floor or trunc of self / other): PyTorch keeps
    neither when other needs no gradient."""

    def run(lib):
        kept = []
        for x_grad, y_grad in [(True, False), (False, True), (True, True)]:
            x = lib.tensor([5.5, -5.5], requires_grad=x_grad)
            y = lib.tensor([2.0, -4.0], requires_grad=y_grad)
            node = getattr(lib, op)(x, y).grad_fn
            kept.append((node.name(), node._saved_self is None, node._saved_other is None))
        return kept

    assert run(minigrad) == run(torch)


def test_saved_result_equals_the_output(torch):
    """ExpBackward0 saves its output: _saved_result has the output's values, as in PyTorch."""

    def run(lib):
        x = lib.tensor([0.0, 1.0], requires_grad=True)
        y = x.exp()
        return y.grad_fn._saved_result.tolist() == y.tolist()

    assert run(minigrad) is run(torch) is True


def test_saved_self_of_a_non_leaf_input():
    """sin(h) saves h itself: _saved_self is h, with h's grad_fn."""
    x = leaf([1.0])
    h = x * 2.0
    node = h.sin().grad_fn
    assert node._saved_self is h
    assert node._saved_self.grad_fn is h.grad_fn


def test_saved_exponent_of_pow(torch):
    """PowBackward0 of x ** 3 keeps _saved_self (x) and _saved_exponent (3), as in PyTorch."""

    def run(lib):
        x = lib.tensor([2.0], requires_grad=True)
        node = (x ** 3).grad_fn
        return node._saved_self is x, node._saved_exponent

    assert run(minigrad) == run(torch)


def test_unknown_saved_attribute_is_an_attribute_error():
    """A name the node does not save raises AttributeError (AddBackward0 saves no _saved_self)."""
    y = leaf([1.0]) + leaf([2.0])
    with pytest.raises(AttributeError):
        y.grad_fn._saved_self


def test_saved_values_are_those_at_forward_time():
    """_saved_self holds the values x had in the forward pass."""
    x = leaf([1.0, 2.0])
    w = leaf([3.0, 4.0])
    node = (x * w).grad_fn
    np.testing.assert_array_equal(node._saved_self.detach().numpy(), [1.0, 2.0])
    np.testing.assert_array_equal(node._saved_other.detach().numpy(), [3.0, 4.0])


SMALL_EXPRESSIONS = ["2 + x", "x + 2", "2 - x", "x - 2", "2 * x", "2 / x", "x / 2", "2 ** x", "x ** 2", "-x",
             "2.5 - x.sum()", "0.5 ** (x * 3)", "1 / (2 - x)", "x.outer(x).sum(0)"]


@pytest.mark.parametrize("expression", SMALL_EXPRESSIONS)
def test_small_expressions_make_pytorchs_graph_node_for_node(expression, torch):
    # A number is a parameter of the node (rsub, pow(Scalar, Tensor)) or a constant input
    # without an edge (add, mul, div), the way PyTorch records each; outer is a view times a row.
    def run(lib):
        x = lib.tensor([0.5, 2.0], requires_grad=True)
        out = eval(expression, {"x": x})
        (grad,) = lib.autograd.grad(out.sum(), x)
        return graph_names(out.grad_fn), out.tolist(), grad.tolist()

    mine, theirs = run(minigrad), run(torch)
    assert mine[0] == theirs[0]
    np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-6)
    np.testing.assert_allclose(mine[2], theirs[2], rtol=1e-6)


def test_the_repr_of_a_node_named_in_a_namespace_shows_its_class_name(torch):
    """CopySlices and CopyBackwards are named torch::autograd::...; their repr, as PyTorch's, is not."""

    def run(lib):
        a = lib.ones(4, requires_grad=True)
        b = a * 2
        b[1:3] = b[1:3] * 5
        c = lib.zeros(2)
        c.copy_(a[:2])
        return [(repr(node).split(" object at ")[0], node.name()) for node in (b.grad_fn, c.grad_fn)]

    assert run(minigrad) == run(torch)

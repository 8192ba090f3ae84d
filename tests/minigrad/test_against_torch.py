"""Differential tests: random autograd programs run under minigrad and under PyTorch.

Hypothesis draws a program (see ``random_graphs``): a few float64 leaves, then
operations that broadcast, reduce, multiply matrices, reshape, index, cat and
stack, reusing earlier results. The same program text is run with
``m = minigrad`` and with ``m = torch``; PyTorch is the oracle for

* every forward value (shape, dtype and numbers);
* ``.backward(gradient=...)`` into the leaves' ``.grad``;
* ``autograd.grad`` with respect to leaves and intermediate values, and the
  gradient of a weighted sum of those gradients (``create_graph=True``),
  including with respect to ``grad_outputs`` itself;
* ``backward(inputs=...)``, several roots at once, ``retain_graph=True`` twice,
  and ``backward(create_graph=True)`` followed by another backward;
* errors: the same exception type, and minigrad's message starts with
  PyTorch's (with ``torch`` read as ``minigrad``); minigrad may add a
  plain-language hint after a blank line.

Skipped (``assume``): programs whose values PyTorch finds huge or non-finite,
and data that lands where the two may legitimately differ (``random_graphs.Step``):
a near-tie that rounding decides, a tie in ``max(dim)`` (which element it
picks is an implementation detail), a norm of zero or an exponent of exactly 0
(PyTorch special-cases their second derivatives). Exact ties are kept: both
must share the gradient the same way.

CI sets ``MINIGRAD_REQUIRE_TORCH=1`` so that a missing PyTorch fails loudly
instead of skipping this file.
"""

import os
import warnings
import zlib

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import minigrad
from random_graphs import FAMILIES, programs, run
from torch_parity import in_minigrad_words

if os.environ.get("MINIGRAD_REQUIRE_TORCH") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

# float64 everywhere: the two libraries differ only in summation order.
RTOL = 1e-7
ATOL = 1e-10
#: Forward values beyond this make gradients whose rounding swamps RTOL; skip them.
LARGEST_VALUE = 1e4

# Derandomized: CI runs the same examples every time. About 15 ms an example.
SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None)
PER_FAMILY = settings(SETTINGS, max_examples=100)
PER_ERROR = settings(SETTINGS, max_examples=60)
MODULES = (minigrad, torch)


# --- helpers --------------------------------------------------------------------------
def _array(t):
    if isinstance(t, torch.Tensor):
        return t.detach().numpy(force=True)  # force: PyTorch may return a lazy ZeroTensor
    return t.detach().numpy()


def _dtype_name(t):
    return str(t.dtype).removeprefix("torch.").removeprefix("minigrad.")


def assert_same(mine, theirs, what):
    """minigrad's tensor (or None) matches PyTorch's in shape, dtype and value."""
    if theirs is None:
        assert mine is None, f"{what}: PyTorch gives None, minigrad {mine!r}"
        return
    assert mine is not None, f"{what}: minigrad gives None, PyTorch {theirs!r}"
    assert tuple(mine.shape) == tuple(theirs.shape), f"{what}: shape {mine.shape} != {tuple(theirs.shape)}"
    assert _dtype_name(mine) == _dtype_name(theirs), f"{what}: dtype {mine.dtype} != {theirs.dtype}"
    np.testing.assert_allclose(_array(mine), _array(theirs), rtol=RTOL, atol=ATOL, err_msg=what)


def _rng(program, salt):
    """Random numbers that depend only on the program (so both runs see the same)."""
    return np.random.default_rng([program.seed, zlib.crc32(salt.encode())])


def _forward(program):
    """Run the program under PyTorch, then under minigrad; returns (mine, theirs).

    Skips programs whose values PyTorch finds huge or non-finite, and those
    that reach a point where the two libraries may legitimately disagree
    (see ``random_graphs.Step``): a near-tie that rounding decides, a tie in
    ``max(dim)``, a zero where a norm or an exponent must not be one.
    """
    theirs = run(program, torch)
    for value in theirs:
        if value.dtype.is_floating_point:
            array = _array(value)
            assume(np.isfinite(array).all() and (np.abs(array) < LARGEST_VALUE).all())
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a forward warning PyTorch does not give is a bug
        mine = run(program, minigrad)
    for step in program.steps:
        for index, dim in step.distinct:
            for values in (mine, theirs):
                array = _array(values[index])
                if array.ndim:
                    gaps = np.diff(np.sort(array, axis=dim), axis=dim)
                    assume((gaps > NEAR * np.maximum(1.0, np.abs(array).max())).all())
        for indices, constants in step.compares:
            for values in (mine, theirs):
                compared = np.concatenate([_array(values[i]).ravel() for i in indices] + [np.asarray(constants)])
                assume(not _near_ties(compared))
        for index in step.nonzero:
            assume((_array(theirs[index]) != 0).all())
    return mine, theirs


#: Two numbers closer than this (relative) but not equal are a near-tie.
NEAR = 1e-9


def _near_ties(array):
    """True if two elements differ, but only by what rounding could explain."""
    gaps = np.abs(array[:, None] - array[None, :])
    scale = np.maximum(1.0, np.maximum(np.abs(array[:, None]), np.abs(array[None, :])))
    return bool(((gaps > 0) & (gaps <= NEAR * scale)).any())


def _cotangent(program, shape, salt, requires_grad=False):
    """The same random ``gradient=`` tensor of ``shape`` for both modules."""
    array = _rng(program, salt).normal(size=shape)
    return [m.tensor(array, requires_grad=requires_grad) for m in MODULES]


def _read_grad(t):
    """``t.grad``, without the warning PyTorch and minigrad give for non-leaf tensors."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return t.grad


def _assert_same_grads(program, mine, theirs, indices=None, what=""):
    for i in program.leaves if indices is None else indices:
        assert_same(_read_grad(mine[i]), _read_grad(theirs[i]), f"{what}v{i}.grad\n{program!r}")


def _doubled_grads(program, theirs):
    """Twice PyTorch's leaf gradients: what a second identical backward must leave.

    NB: PyTorch itself is not asked for the second backward. Its AccumulateGrad
    may store one buffer as the .grad of several leaves (PyTorch 2.13, e.g.
    ``torch.stack([a, b]).sum()`` for 0-d ``a`` and ``b``) and then add into it
    in place once per leaf, so the second backward leaves 3x, not 2x.
    """
    return {i: None if theirs[i].grad is None else 2 * _array(theirs[i].grad) for i in program.leaves}


def _assert_grads_equal(program, mine, expected, what):
    for i, grad in expected.items():
        if grad is None:
            assert mine[i].grad is None, f"{what}v{i}.grad should be None\n{program!r}"
        else:
            np.testing.assert_allclose(_array(mine[i].grad), grad, rtol=RTOL, atol=ATOL,
                                       err_msg=f"{what}v{i}.grad\n{program!r}")


def _outcome(action):
    """Run ``action()``; return the exception it raised, or None."""
    try:
        action()
    except Exception as error:  # noqa: BLE001  (any exception is an outcome to compare)
        return error
    return None


def assert_same_outcome(mine, theirs, what):
    """Both succeeded, or both raised the same exception type with PyTorch's message."""
    if theirs is None:
        assert mine is None, f"{what}: minigrad raised {type(mine).__name__}: {mine}\nwhere PyTorch succeeded"
        return
    assert mine is not None, f"{what}: PyTorch raised {type(theirs).__name__}: {theirs}\nwhere minigrad succeeded"
    assert type(mine) is type(theirs), f"{what}: minigrad raised {mine!r}, PyTorch {theirs!r}"
    expected = in_minigrad_words(str(theirs))
    assert str(mine).startswith(expected), f"{what}: message\n{mine}\ndoes not start with PyTorch's\n{expected}"


def _float_subset(data, program, max_size=4):
    return data.draw(st.lists(st.sampled_from(program.floating), min_size=1, max_size=max_size, unique=True),
                     label="inputs")


# --- values and gradients ----------------------------------------------------------------
@pytest.mark.parametrize("family", FAMILIES)
@PER_FAMILY
@given(st.data())
def test_values_and_backward(family, data):
    program = data.draw(programs(kinds=FAMILIES[family]), label="program")
    mine, theirs = _forward(program)
    for i, (a, b) in enumerate(zip(mine, theirs)):
        assert_same(a, b, f"v{i}\n{program!r}")
    gradients = _cotangent(program, theirs[-1].shape, "backward")
    mine[-1].backward(gradient=gradients[0])
    theirs[-1].backward(gradient=gradients[1])
    _assert_same_grads(program, mine, theirs)
    # Again, without retain_graph: an error exactly where a node needs a saved
    # tensor the first backward freed; otherwise the gradients add up.
    expected = _doubled_grads(program, theirs)
    again = _cotangent(program, theirs[-1].shape, "backward")
    errors = [_outcome(lambda values=values, g=g: values[-1].backward(g)) for values, g in zip((mine, theirs), again)]
    assert_same_outcome(*errors, f"second backward\n{program!r}")
    if errors[1] is None:
        _assert_grads_equal(program, mine, expected, "after a second backward that needed nothing freed: ")


@pytest.mark.parametrize("family", FAMILIES)
@PER_FAMILY
@given(st.data())
def test_autograd_grad_first_and_second_order(family, data):
    program = data.draw(programs(kinds=FAMILIES[family]), label="program")
    mine, theirs = _forward(program)
    inputs = _float_subset(data, program)
    results = []
    for m, values, grad_output in zip(MODULES, (mine, theirs), _cotangent(program, theirs[-1].shape, "g", True)):
        wrt = [values[i] for i in inputs]
        first = m.autograd.grad(values[-1], wrt, grad_outputs=grad_output, create_graph=True, allow_unused=True)
        # A random weighted sum of the first-order gradients, differentiated again
        # with respect to the same inputs and to grad_outputs (first is linear in it).
        rng = _rng(program, "weights")
        total = sum((g * m.tensor(rng.normal(size=tuple(g.shape)))).sum() for g in first if g is not None)
        second = None
        if isinstance(total, m.Tensor) and total.requires_grad:
            second = m.autograd.grad(total, wrt + [grad_output], allow_unused=True, materialize_grads=True)
        results.append((first, second))
    (mine_first, mine_second), (their_first, their_second) = results
    for i, a, b in zip(inputs, mine_first, their_first):
        assert_same(a, b, f"grad of output wrt v{i}\n{program!r}")
    # Where a gradient does not depend on anything (say, of a linear function),
    # PyTorch may still mark it requires_grad; what must agree are the numbers.
    names = [f"v{i}" for i in inputs] + ["grad_outputs"]
    if mine_second is None or their_second is None:
        present = mine_second if their_second is None else their_second
        for name, g in zip(names, present or ()):
            np.testing.assert_allclose(_array(g), 0.0, atol=ATOL, err_msg=f"second order wrt {name}\n{program!r}")
        return
    for name, a, b in zip(names, mine_second, their_second):
        assert_same(a, b, f"second order wrt {name}\n{program!r}")


@SETTINGS
@given(programs())
def test_retain_graph_twice_accumulates(program):
    mine, theirs = _forward(program)
    for values, g in zip((mine, theirs), _cotangent(program, theirs[-1].shape, "backward")):
        values[-1].backward(g, retain_graph=True)
    _assert_same_grads(program, mine, theirs, what="after the first backward: ")
    expected = _doubled_grads(program, theirs)
    # A fresh gradient tensor: PyTorch may keep the first one as a leaf's .grad.
    mine[-1].backward(_cotangent(program, theirs[-1].shape, "backward")[0], retain_graph=True)
    _assert_grads_equal(program, mine, expected, "after the second backward (twice the first): ")


@SETTINGS
@given(programs(), st.data())
def test_backward_inputs_restricts_accumulation(program, data):
    mine, theirs = _forward(program)
    inputs = _float_subset(data, program)
    gradients = _cotangent(program, theirs[-1].shape, "backward")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # .grad of non-leaf inputs
        mine[-1].backward(gradients[0], inputs=[mine[i] for i in inputs])
        theirs[-1].backward(gradients[1], inputs=[theirs[i] for i in inputs])
    _assert_same_grads(program, mine, theirs, sorted(set(program.leaves) | set(inputs)))


@SETTINGS
@given(programs(), st.data())
def test_backward_of_several_roots(program, data):
    mine, theirs = _forward(program)
    other = data.draw(st.sampled_from(program.floating), label="second root")
    first = _cotangent(program, theirs[-1].shape, "first root")
    second = _cotangent(program, theirs[other].shape, "second root")
    for m, values, g1, g2 in zip(MODULES, (mine, theirs), first, second):
        m.autograd.backward([values[-1], values[other]], [g1, g2])
    _assert_same_grads(program, mine, theirs)


@SETTINGS
@given(programs())
def test_backward_with_create_graph_then_again(program):
    mine, theirs = _forward(program)
    gradients = _cotangent(program, theirs[-1].shape, "backward")
    for values, g in zip((mine, theirs), gradients):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # the reference-cycle warning
            values[-1].backward(g, create_graph=True)
    _assert_same_grads(program, mine, theirs, what="after backward(create_graph=True): ")
    for m, values in zip(MODULES, (mine, theirs)):
        rng = _rng(program, "weights")
        grads = [values[i].grad for i in program.leaves]
        total = sum((g * m.tensor(rng.normal(size=tuple(g.shape)))).sum() for g in grads if g is not None)
        if isinstance(total, m.Tensor) and total.requires_grad:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                total.backward()
    _assert_same_grads(program, mine, theirs, what="after differentiating the gradients: ")


# --- errors --------------------------------------------------------------------------------
ERRORS = ["second backward", "implicit gradient", "wrong shape", "in-place on a saved tensor",
          "in-place on a leaf", "no grad_fn", "unused input"]
INPLACE_CHANGES = [("mul_", (1.5,)), ("add_", (0.25,)), ("sub_", (0.5,)), ("div_", (2.0,)),
                   ("clamp_", (-1.0, 1.0)), ("zero_", ())]


@pytest.mark.parametrize("error", ERRORS)
@PER_ERROR
@given(programs(), st.data())
def test_errors_match(error, program, data):
    mine, theirs = _forward(program)
    gradients = _cotangent(program, theirs[-1].shape, "backward")
    actions = []  # one callable per module, run under minigrad and under PyTorch

    if error == "second backward":
        again = _cotangent(program, theirs[-1].shape, "backward")  # fresh: see the retain_graph test
        for values, g, g_again in zip((mine, theirs), gradients, again):
            values[-1].backward(g)
            actions.append(lambda values=values, g=g_again: values[-1].backward(g))
        expected = _doubled_grads(program, theirs)  # in case both succeed (nothing saved was needed)
    elif error == "implicit gradient":
        actions = [lambda values=values: values[-1].backward() for values in (mine, theirs)]
    elif error == "wrong shape":
        shape = tuple(data.draw(st.lists(st.integers(1, 3), max_size=3), label="gradient shape"))
        assume(shape != tuple(theirs[-1].shape))
        for values, g in zip((mine, theirs), _cotangent(program, shape, "wrong")):
            actions.append(lambda values=values, g=g: values[-1].backward(g))
    elif error == "in-place on a saved tensor":
        target = data.draw(st.sampled_from(program.floating), label="target")  # views and matmul operands too
        name, args = data.draw(st.sampled_from(INPLACE_CHANGES), label="change")
        # A leaf that requires grad may only be changed under no_grad (see the next case).
        recorded = target not in program.leaves and data.draw(st.booleans(), label="recorded")
        for m, values, g in zip(MODULES, (mine, theirs), gradients):
            with m.set_grad_enabled(recorded):
                getattr(values[target], name)(*args)
            actions.append(lambda values=values, g=g: values[-1].backward(g))
    elif error == "in-place on a leaf":
        leaf = data.draw(st.sampled_from(program.leaves), label="leaf")
        actions = [lambda values=values: values[leaf].add_(1.0) for values in (mine, theirs)]
    elif error == "no grad_fn":
        detached_first = data.draw(st.booleans(), label="detached first")
        for m, values, g in zip(MODULES, (mine, theirs), gradients):
            roots = [values[-1].detach(), values[-1]] if detached_first else [values[-1], values[-1].detach()]
            actions.append(lambda m=m, roots=roots, g=g: m.autograd.backward(roots, [g, g]))
    else:  # unused input
        inputs = _float_subset(data, program)
        add_fresh = data.draw(st.booleans(), label="add a fresh leaf")
        for m, values, fresh in zip(MODULES, (mine, theirs), _cotangent(program, (2,), "fresh", True)):
            wrt = [values[i] for i in inputs] + ([fresh] if add_fresh else [])
            actions.append(lambda m=m, values=values, wrt=wrt: m.autograd.grad(values[-1].sum(), wrt))

    mine_error, their_error = (_outcome(action) for action in actions)
    assert_same_outcome(mine_error, their_error, f"{error}\n{program!r}")
    if their_error is None and error == "second backward":
        _assert_grads_equal(program, mine, expected, "after a second backward that needed nothing freed: ")
    elif their_error is None:
        _assert_same_grads(program, mine, theirs, what=f"after {error}: ")


@SETTINGS
@given(programs())
def test_no_grad_records_nothing(program):
    mine, theirs = _forward(program)  # skips the programs the other tests skip
    results = []
    for m in MODULES:
        with m.no_grad():
            results.append(run(program, m))
    for i, (a, b) in enumerate(zip(*results)):
        assert_same(a, b, f"v{i} under no_grad\n{program!r}")
        assert (a.requires_grad, a.grad_fn is None) == (b.requires_grad, b.grad_fn is None), (
            f"v{i} under no_grad: requires_grad={a.requires_grad}, grad_fn={a.grad_fn} in minigrad; "
            f"requires_grad={b.requires_grad}, grad_fn={b.grad_fn} in PyTorch\n{program!r}")
    # Nothing was recorded, so backward from any value fails, except from a leaf
    # (a view made under no_grad requires grad in PyTorch, yet has no graph).
    for i in program.floating:
        gradients = _cotangent(program, theirs[i].shape, f"backward from v{i}")
        errors = [_outcome(lambda values=values, g=g: values[i].backward(g)) for values, g in zip(results, gradients)]
        assert_same_outcome(*errors, f"backward from v{i}, computed under no_grad\n{program!r}")
    _assert_same_grads(program, *results, what="after backward from each value: ")

"""The ops surface that real PyTorch code reaches for, checked against PyTorch itself.

What the op table (``op_table.py``) cannot say: errors for wrong calls (same type, PyTorch's
sentence), in-place forms and their node names, multi-output nodes (split, unbind, var_mean),
second derivatives through kinks, einsum, and Python's protocols (``float(x)``, ``x + None``).
Every expectation comes from running the same code under PyTorch (the ``torch`` fixture).
"""

import numpy as np
import pytest

import minigrad
from torch_parity import assert_same_error, pytorch_part

# --- wrong calls raise PyTorch's error, never NumPy's and never a silent result ------------------
MISUSE = {
    "x + None": lambda lib: lib.ones(2) + None,
    "None * x": lambda lib: None * lib.ones(2),
    "x - 'a'": lambda lib: lib.ones(2) - "a",
    "x < None": lambda lib: lib.ones(2) < None,
    "x += None": lambda lib: _iadd_none(lib),
    "add(x, None)": lambda lib: lib.add(lib.ones(2), None),
    "mul(x, 'a')": lambda lib: lib.mul(lib.ones(2), "a"),
    "float(2 elements)": lambda lib: float(lib.ones(2)),
    "int(2 elements)": lambda lib: int(lib.ones(2)),
    "bool(2 elements)": lambda lib: bool(lib.ones(2)),
    "bool(empty)": lambda lib: bool(lib.ones(0)),
    "len(0-d)": lambda lib: len(lib.tensor(1.0)),
    "iter(0-d)": lambda lib: iter(lib.tensor(1.0)),
    "x[5]": lambda lib: lib.ones(2)[5],
    "m[0, 0, 0]": lambda lib: lib.ones(2, 3)[0, 0, 0],
    "m[1.5]": lambda lib: lib.ones(2, 3)[1.5],
    "sum(dim=(0, 0))": lambda lib: lib.ones(2, 3).sum(dim=(0, 0)),
    "mean(dim=(1, -1))": lambda lib: lib.ones(2, 3).mean(dim=(1, -1)),
    "amax(dim=(0, 0))": lambda lib: lib.ones(2, 3).amax(dim=(0, 0)),
    "sum(axis=5)": lambda lib: lib.ones(2, 3).sum(axis=5),
    "argmax(dim=3)": lambda lib: lib.ones(2, 3).argmax(dim=3),
    "all(dim=4)": lambda lib: lib.ones(2, 3).all(dim=4),
    "flatten(3)": lambda lib: lib.ones(2, 3).flatten(3),
    "size(2)": lambda lib: lib.ones(2, 3).size(2),
    "mean(dtype=int64)": lambda lib: lib.ones(2, 3).mean(dtype=lib.int64),
    "cat ndim": lambda lib: lib.cat([lib.ones(2, 3), lib.ones(2)]),
    "cat sizes": lambda lib: lib.cat([lib.ones(2, 3), lib.ones(2, 4)]),
    "cat sizes dim 1": lambda lib: lib.cat([lib.ones(2, 3), lib.ones(3, 3)], dim=1),
    "cat empty": lambda lib: lib.cat([]),
    "cat a number": lambda lib: lib.cat([lib.ones(2), 3]),
    "cat dim": lambda lib: lib.cat([lib.ones(2, 3)], dim=2),
    "stack sizes": lambda lib: lib.stack([lib.ones(2, 3), lib.ones(2)]),
    "stack empty": lambda lib: lib.stack([]),
    "stack dim": lambda lib: lib.stack([lib.ones(2), lib.ones(2)], dim=3),
    "expand": lambda lib: lib.ones(2, 3).expand(3, 3),
    "where shapes": lambda lib: lib.where(lib.ones(2) > 0, lib.ones(2, 3), lib.ones(2)),
    "split sizes": lambda lib: lib.ones(2, 3).split([1, 1], 1),
    "split dim": lambda lib: lib.ones(2, 3).split(2, dim=3),
    "chunk 0": lambda lib: lib.ones(2, 3).chunk(0),
    "narrow past end": lambda lib: lib.ones(2, 3).narrow(1, 2, 2),
    "narrow start": lambda lib: lib.ones(3).narrow(0, 4, 0),
    "unbind 0-d": lambda lib: lib.tensor(1.0).unbind(0),
    "gather out of bounds": lambda lib: lib.ones(2, 3).gather(1, lib.tensor([[3]])),
    "gather float index": lambda lib: lib.ones(2, 3).gather(1, lib.tensor([[0.0]])),
    "index_select out of bounds": lambda lib: lib.ones(2, 3).index_select(1, lib.tensor([5])),
    "masked_fill float mask": lambda lib: lib.ones(2, 3).masked_fill(lib.ones(2, 3), 0.0),
    "masked_fill mask shape": lambda lib: lib.ones(2, 3).masked_fill(lib.ones(2, 2, dtype=lib.bool), 0.0),
    "repeat too few": lambda lib: lib.ones(2, 3).repeat(2),
    "flip dim": lambda lib: lib.ones(2, 3).flip(2),
    "roll dim": lambda lib: lib.ones(2, 3).roll(1, 5),
    "topk k": lambda lib: lib.ones(2, 3).topk(4),
    "sort dim": lambda lib: lib.ones(2, 3).sort(dim=3),
    "trace of a vector": lambda lib: lib.ones(3).trace(),
    "diag of 3-D": lambda lib: lib.diag(lib.ones(2, 2, 2)),
    "prod dim": lambda lib: lib.ones(2, 3).prod(dim=3),
    "cumsum dim": lambda lib: lib.ones(2, 3).cumsum(5),
    "std dim": lambda lib: lib.ones(2, 3).std(dim=5),
    "atan2 with a string": lambda lib: lib.atan2(lib.ones(2), "a"),
    "lerp shapes": lambda lib: lib.lerp(lib.ones(2, 3), lib.ones(2), 0.5),
    "clamp tensor bound shape": lambda lib: lib.ones(2).clamp(min=lib.ones(3)),
    "addmm shapes": lambda lib: lib.addmm(lib.ones(2, 3), lib.ones(2, 3), lib.ones(2, 3)),
    "einsum sizes": lambda lib: lib.einsum("ij,jk->ik", lib.ones(2, 3), lib.ones(2, 3)),
    "einsum output letter": lambda lib: lib.einsum("ij->ijk", lib.ones(2, 3)),
    "bitwise and of floats": lambda lib: lib.ones(2) & lib.ones(2),
    "~ of floats": lambda lib: ~lib.ones(2),
    "expanded exp_": lambda lib: lib.ones(2).expand(2, 2).exp_(),
    "overlapping copy_": lambda lib: _overlap(lib, lambda x: x[1:].copy_(x[:-1])),
    "overlapping add_": lambda lib: _overlap(lib, lambda x: x[1:].add_(x[:-1])),
    "overlapping mul_": lambda lib: _overlap(lib, lambda x: x[1:3].mul_(x[0:2])),
    "split by a float": lambda lib: lib.ones(2, 3).split(1.5),
    "chunk by a float": lambda lib: lib.ones(2, 3).chunk(2.5),
    "topk by a float": lambda lib: lib.ones(2, 3).topk(1.5),
    "unbind by a string": lambda lib: lib.ones(2, 3).unbind("a"),
    "roll by a string": lambda lib: lib.ones(2, 3).roll("a"),
    "tile by a float": lambda lib: lib.ones(2, 3).tile(2.5),
    "narrow negative length": lambda lib: lib.ones(2, 3).narrow(1, 0, -1),
    "repeat negative": lambda lib: lib.ones(2, 3).repeat(-1, 1),
    "cumsum over a tuple": lambda lib: lib.ones(2, 3).cumsum(dim=(0,)),
    "int % 0": lambda lib: lib.tensor([1, 2]) % 0,
    "int // 0": lambda lib: lib.tensor([1, 2]) // 0,
    "cat of a tensor": lambda lib: lib.cat(lib.ones(2, 3)),
    "stack of a tensor": lambda lib: lib.stack(lib.ones(2, 3)),
    "addmv bias size": lambda lib: lib.addmv(lib.ones(3), lib.ones(2, 3), lib.ones(3)),
    "addmm bias shape": lambda lib: lib.addmm(lib.ones(2, 3), lib.ones(2, 3), lib.ones(3, 2)),
    "expand to fewer dims": lambda lib: lib.ones(2, 3).expand(2),
    "unflatten sizes": lambda lib: lib.ones(3).unflatten(0, (2, 2)),
    "mask of the wrong shape": lambda lib: lib.ones(2, 3)[lib.tensor([True, False, True])],
    "exp_ on a leaf": lambda lib: lib.ones(2, requires_grad=True).exp_(),
    "exp_ of an int tensor": lambda lib: lib.tensor([1, 2]).exp_(),
    # nll_loss checks its targets in its forward, in one look for the common case (see _target_weights)
    "cross_entropy negative target": lambda lib: _functional(lib).cross_entropy(lib.ones(3, 4), lib.tensor([0, -1, 2])),
    "nll_loss target = classes": lambda lib: _functional(lib).nll_loss(lib.ones(3, 4), lib.tensor([0, 4, 2])),
    "nll_loss uint8 target": lambda lib: _functional(lib).nll_loss(lib.ones(3, 4), lib.tensor([0, 9, 2], dtype=lib.uint8)),
    "nll_loss -100 when ignoring 1": lambda lib: _functional(lib).nll_loss(lib.ones(3, 4), lib.tensor([0, -100, 2]),
                                                                           ignore_index=1),
    "nll_loss of one sample": lambda lib: _functional(lib).nll_loss(lib.ones(4), lib.tensor(7)),
    "cross_entropy of images": lambda lib: _functional(lib).cross_entropy(
        lib.ones(2, 3, 2, 2), lib.tensor([[[0, 1], [2, 5]], [[0, 0], [0, 0]]])),
    "weighted cross_entropy": lambda lib: _functional(lib).cross_entropy(lib.ones(3, 4), lib.tensor([0, -2, 2]),
                                                                         weight=lib.ones(4)),
}


def _functional(lib):
    return lib.nn.functional


def _iadd_none(lib):
    x = lib.ones(2)
    x += None


def _overlap(lib, write):
    return write(lib.arange(4.0))


@pytest.mark.parametrize("call", list(MISUSE.values()), ids=list(MISUSE))
def test_wrong_call_raises_pytorchs_error(call, torch):
    assert_same_error(call, torch, expect_hint=False)


def test_overlapping_write_explains_itself_in_plain_words():
    with pytest.raises(RuntimeError) as error:
        minigrad.arange(4.0)[1:].copy_(minigrad.arange(4.0)[:3])  # separate memory: fine
        x = minigrad.arange(4.0)
        x[1:].copy_(x[:-1])
    assert "clone()" in str(error.value) and "In plain words" in str(error.value)


def test_writing_a_tensor_into_itself_is_allowed(torch):
    # The same elements on both sides: each is read before it is written (PyTorch allows it).
    for lib in (torch, minigrad):
        x = lib.arange(4.0)
        x.add_(x)
        x.copy_(x)
        assert x.tolist() == [0.0, 2.0, 4.0, 6.0]


def test_none_compares_as_python_objects_do(torch):
    for lib in (torch, minigrad):
        assert (lib.ones(2) == None) is False  # noqa: E711 (the point of the test)
        assert (lib.ones(2) != "a") is True


# --- NumPy's names, as PyTorch accepts them -------------------------------------------------
@pytest.mark.parametrize("expression", [
    "x.sum(axis=0)", "x.sum(axis=1, keepdims=True)", "x.mean(axis=-1)", "x.max(axis=1).values",
    "x.amax(axis=0, keepdims=True)", "x.std(axis=0)", "x.var(axis=1, keepdims=True)", "x.prod(axis=1)",
    "x.argmax(axis=1)", "x.logsumexp(axis=1)", "x.cumsum(axis=1)", "lib.sum(x, axis=0)",
])
def test_numpy_keyword_names(expression, torch):
    array = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])

    def run(lib):
        x = lib.tensor(array)
        return np.asarray(eval(expression, {"x": x, "lib": lib}))

    np.testing.assert_allclose(run(minigrad), run(torch), rtol=1e-12)


# --- in-place unary forms: the out-of-place node, a version bump --------------------------------
INPLACE = ["exp_()", "sin_()", "cos_()", "tanh_()", "sigmoid_()", "relu_()", "sqrt_()", "log_()", "abs_()", "neg_()",
           "pow_(2)", "pow_(2.5)", "clamp_min_(0.5)", "clamp_max_(0.7)", "square_()", "reciprocal_()", "floor_()",
           "round_()", "log1p_()", "rsqrt_()", "tan_()", "sign_()", "exp2_()", "trunc_()", "frac_()", "expm1_()",
           "log2_()", "log10_()", "sinh_()", "clamp_(0.4, 0.8)", "lerp_(ones, 0.5)", "atan2_(ones)",
           "masked_fill_(mask, 0.0)", "remainder_(0.25)"]


@pytest.mark.parametrize("call", INPLACE)
def test_inplace_form_records_what_pytorch_records(call, torch):
    def run(lib):
        x = lib.tensor([0.3, 0.6, 0.9], requires_grad=True)
        z = x.clone()
        names = {"ones": lib.ones(3), "mask": lib.tensor([True, False, True])}
        y = eval(f"z.{call}", names, {"z": z})
        assert y is z
        y.backward(lib.tensor([1.0, 2.0, 3.0]))
        return y.grad_fn.name(), z._version, y.detach().numpy().copy(), x.grad.numpy().copy()

    name, version, value, grad = run(minigrad)
    expected_name, expected_version, expected_value, expected_grad = run(torch)
    assert (name, version) == (expected_name, expected_version)
    np.testing.assert_allclose(value, expected_value, rtol=1e-6)
    np.testing.assert_allclose(grad, expected_grad, rtol=1e-6)


def test_inplace_form_then_saved_tensor_check(torch):
    # exp saves its result; changing that result in place again is caught at backward.
    for lib in (torch, minigrad):
        x = lib.tensor([0.5], requires_grad=True)
        y = x.exp()
        y.sin_()
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.backward()


# --- several outputs, one node ------------------------------------------------------------------
@pytest.mark.parametrize("expression", [
    "x.split(2, dim=1)", "x.split([1, 3], dim=1)", "x.chunk(3, 1)", "x.unbind(0)", "x.unbind(1)",
    "lib.var_mean(x, 1)", "lib.std_mean(x, 0, keepdim=True)", "lib.var_mean(x, correction=0)", "x.tensor_split(3, 1)",
])
def test_multi_output_ops_name_nodes_and_route_gradients_as_pytorch(expression, torch):
    array = np.arange(8.0).reshape(2, 4) ** 1.5

    def run(lib):
        x = lib.tensor(array, requires_grad=True)
        outs = eval(expression, {"x": x, "lib": lib})
        # Use only every other output: the others get no gradient (zeros in the node's backward).
        used = outs[::2]
        sum(((o * (i + 2)) ** 2).sum() for i, o in enumerate(used)).backward()
        nodes = [o.grad_fn for o in outs]
        return ([n.name() for n in nodes], [o.output_nr for o in outs], len({id(n) for n in nodes}),
                [o.detach().numpy().copy() for o in outs], x.grad.numpy().copy())

    names, numbers, distinct, values, grad = run(minigrad)
    expected = run(torch)
    assert (names, numbers, distinct) == expected[:3]
    for got, want in zip(values, expected[3]):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_allclose(grad, expected[4], rtol=1e-12)


def test_return_types_print_as_pytorchs(torch):
    for expression in ["x.max(1)", "x.min(0)", "x.sort(1)", "x.topk(1)", "x.sort(0, descending=True)"]:
        def shown(lib):
            x = lib.tensor([[3.0, 1.0], [2.0, 5.0]])
            return repr(eval(expression, {"x": x})).replace("torch.", "minigrad.")

        assert shown(minigrad) == shown(torch)


def test_sort_is_stable_and_descending_puts_nan_first(torch):
    array = np.array([2.0, 1.0, 2.0, np.nan, 1.0])
    for descending in (False, True):
        got = minigrad.tensor(array).sort(descending=descending)
        want = torch.tensor(array).sort(descending=descending, stable=True)
        assert got.indices.tolist() == want.indices.tolist()


# --- second derivatives through kinks: zeros where PyTorch gives zeros, an error where it errs -------
KINKS = {
    "relu": lambda lib, x: lib.relu(x), "F.relu": lambda lib, x: x.relu(), "abs": lambda lib, x: x.abs(),
    "clamp": lambda lib, x: x.clamp(0, 1), "clamp_min": lambda lib, x: x.clamp(min=0),
    "maximum": lambda lib, x: lib.maximum(x, lib.zeros(3)), "where": lambda lib, x: lib.where(x > 0, x, 2 * x),
    "sign": lambda lib, x: x.sign(), "max": lambda lib, x: x.max(), "amax": lambda lib, x: x.amax(0),
    "max(dim)": lambda lib, x: x.max(0).values, "floor": lambda lib, x: x.floor(),
    "sort": lambda lib, x: x.sort().values,
}


@pytest.mark.parametrize("name", list(KINKS))
def test_second_derivative_through_a_kink(name, torch):
    def run(lib):
        x = lib.tensor([-1.0, 2.0, 0.5], requires_grad=True)
        (g,) = lib.autograd.grad(KINKS[name](lib, x).sum(), x, create_graph=True)
        try:
            (h,) = lib.autograd.grad(g.sum(), x)
        except RuntimeError as error:
            return "error", pytorch_part(error).replace("minigrad", "torch")
        if getattr(h, "_is_zerotensor", lambda: False)():
            return "value", [0.0] * h.numel()  # PyTorch's efficient zeros: a tensor without storage
        return "value", h.tolist()

    assert run(minigrad) == run(torch)


def test_relu_second_derivative_node_is_pytorchs(torch):
    for lib in (torch, minigrad):
        x = lib.tensor([-1.0, 2.0], requires_grad=True)
        (g,) = lib.autograd.grad(x.relu().sum(), x, create_graph=True)
        assert g.grad_fn.name() == "ThresholdBackwardBackward0"


# --- einsum: values, gradients, second order against PyTorch -----------------------------------
EINSUM = ["ij,jk->ik", "ij,jk", "bij,bjk->bik", "ij,ij->i", "i,j", "i,j->ij", "i,i->", "ij->", "ij->ji", "ij->j",
          "ij,jk,kl->il", "ik,jk->ij", "bi,bj->bij"]
SHAPES = {"i": 2, "j": 3, "k": 4, "l": 2, "b": 2}


@pytest.mark.parametrize("equation", EINSUM)
def test_einsum_matches_pytorch_to_second_order(equation, torch):
    operands = equation.split("->")[0].split(",")
    rng = np.random.default_rng(len(equation))
    arrays = [rng.standard_normal([SHAPES[c] for c in s]) for s in operands]

    def run(lib):
        xs = [lib.tensor(a, requires_grad=True) for a in arrays]
        z = lib.einsum(equation, *xs)
        v = lib.tensor(np.linspace(-1, 1, max(z.numel(), 1)).reshape(tuple(z.shape)))
        grads = lib.autograd.grad((z * v).sum(), xs, create_graph=True)
        total = sum((g * g).sum() for g in grads)
        second = lib.autograd.grad(total, xs, allow_unused=True) if total.requires_grad else [None] * len(xs)
        return ([z.detach().numpy()] + [g.detach().numpy() for g in grads]
                + [np.zeros(a.shape) if s is None else s.numpy() for s, a in zip(second, arrays)])

    for got, want in zip(run(minigrad), run(torch)):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_einsum_forms_minigrad_does_not_support_say_so():
    with pytest.raises(NotImplementedError, match="ii->i"):
        minigrad.einsum("ii->i", minigrad.ones(2, 2))
    with pytest.raises(NotImplementedError, match=r"\.\.\."):
        minigrad.einsum("...ij->...ji", minigrad.ones(2, 2))


# --- values that depend on conventions ---------------------------------------------------------
@pytest.mark.parametrize("expression", [
    "x % 2", "-x % 2", "x // 2", "(-x) // 2", "x.round()", "(x * 0.5).round()", "x.frac()", "x.prod()",
    "x.cumsum(0)", "lib.tensor([1, 2, 3]).prod()", "lib.tensor([True, True]).cumsum(0)",
    "lib.tensor([1, 2, 3]) % 2", "lib.tensor([7, -7]) // 2", "(x > 1) & (x < 3)", "(x > 1) | (x < 0)",
    "~(x > 1)", "lib.cat([lib.ones(2), lib.tensor([1, 2])])", "lib.stack([lib.ones(2), lib.tensor([1, 2])])",
    "lib.cat([lib.tensor([]), x])", "x.var(correction=0)", "x.std(unbiased=False)", "x.floor().dtype",
])
def test_conventions_as_pytorch(expression, torch):
    def run(lib):
        x = lib.tensor([0.5, 1.5, 2.5, 3.0])
        result = eval(expression, {"x": x, "lib": lib})
        return str(result).replace("torch.", "minigrad.") if not hasattr(result, "tolist") else (
            result.tolist(), str(result.dtype).replace("torch.", "minigrad."))

    assert run(minigrad) == run(torch)


def test_prod_gradient_with_zeros(torch):
    array = np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0], [1.0, 2.0, 4.0]])
    for expression in ["x.prod()", "x.prod(1)", "x.prod(0, keepdim=True)"]:
        grads = []
        for lib in (minigrad, torch):
            x = lib.tensor(array, requires_grad=True)
            eval(expression, {"x": x}).sum().backward()
            grads.append(x.grad.numpy())
        np.testing.assert_allclose(*grads)


def test_clamp_with_tensor_bounds_routes_gradients_as_pytorch(torch):
    x, lo, hi = [-1.0, 0.5, 2.0, 0.7], [0.0, 0.0, 0.0, 0.9], [1.0, 1.0, 1.0, 0.8]  # the last: lo > hi
    grads = []
    for lib in (minigrad, torch):
        leaves = [lib.tensor(v, requires_grad=True) for v in (x, lo, hi)]
        lib.clamp(*leaves).backward(lib.tensor([1.0, 2.0, 3.0, 4.0]))
        grads.append([leaf.grad.tolist() for leaf in leaves])
    assert grads[0] == grads[1]


@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2.0), (0, 1)])
def test_addmm_and_addmv_scale_as_pytorch(beta, alpha, torch):
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(s) for s in [(3,), (2, 4), (4, 3), (4,)]]
    results = []
    for lib in (minigrad, torch):
        bias, m1, m2, v = [lib.tensor(a, requires_grad=True) for a in arrays]
        out = lib.addmm(bias, m1, m2, beta=beta, alpha=alpha).sum() + lib.addmv(bias[:2], m1, v, beta=beta,
                                                                              alpha=alpha).sum()
        out.backward()
        results.append([out.item()] + [t.grad.numpy().copy() for t in (bias, m1, m2, v)])
    for got, want in zip(*results):
        np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("expression", [
    "lib.unique(x)", "x.unique(return_counts=True)", "lib.unique(x, return_inverse=True, return_counts=True)",
    "lib.unique(lib.tensor([[1, 2], [0, 1], [1, 2]]), dim=0, return_inverse=True)", "lib.nonzero(x > 1)",
    "(x > 1).nonzero(as_tuple=True)", "lib.argwhere(x.view(2, 3) > 1)", "lib.count_nonzero(x)",
    "lib.bincount(x)", "lib.bincount(x, minlength=6)",
])
def test_counting_and_finding_as_pytorch(expression, torch):
    def run(lib):
        x = lib.tensor([2, 0, 2, 1, 3, 0])
        result = eval(expression, {"x": x, "lib": lib})
        results = result if isinstance(result, tuple) else (result,)
        return [(r.tolist(), str(r.dtype).replace("torch.", "minigrad."), tuple(r.shape)) for r in results]

    assert run(minigrad) == run(torch)

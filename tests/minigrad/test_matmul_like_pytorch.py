"""matmul is built as PyTorch builds it: dot, mv, mm, a folded mm/mv, or an expanded bmm.

For every pair of shapes below (1-D, 2-D, batched, broadcast batches, batches of one), with
each operand requiring grad or not, and with the left operand in C order or not, minigrad and
PyTorch must record the same graph (node names all the way down), give the same result shape,
version and gradients, or raise the same error. The choice between folding and bmm depends on
exactly those things, which is why they are varied.
"""

import itertools

import numpy as np
import pytest

import minigrad
from torch_parity import graph_names, pytorch_part

SHAPES = [(3,), (2, 3), (3, 2), (2, 2, 3), (2, 3, 2), (1, 3, 2), (2, 1, 2, 3), (3, 3, 2), (4, 2, 3), (2, 3, 1, 3),
          (1, 2, 3)]
GRADS = [(True, True), (True, False), (False, True)]


def run(lib, shape1, shape2, grads, strided):
    a = lib.tensor(np.arange(float(np.prod(shape1))).reshape(shape1))
    b = lib.tensor(np.arange(float(np.prod(shape2))).reshape(shape2) / 7)
    if strided:
        a = a.transpose(0, 1).contiguous().transpose(0, 1)  # the same values, not in C order
    a.requires_grad_(grads[0])
    b.requires_grad_(grads[1])
    try:
        out = a @ b
    except RuntimeError as error:
        return pytorch_part(error).replace("torch", "minigrad")
    out.backward(lib.ones(out.shape))
    return (graph_names(out.grad_fn), tuple(out.shape), out._version,
            a.grad.numpy() if grads[0] else None, b.grad.numpy() if grads[1] else None)


CASES = [(s1, s2, g, strided) for s1, s2 in itertools.product(SHAPES, repeat=2) for g in GRADS
         for strided in ((False, True) if len(s1) >= 3 else (False,))]


@pytest.mark.parametrize("shape1, shape2, grads, strided", CASES,
                         ids=[f"{s1}@{s2}-grads{g}-{'strided' if st else 'C'}" for s1, s2, g, st in CASES])
def test_matmul_records_what_pytorch_records(shape1, shape2, grads, strided, torch):
    mine, theirs = run(minigrad, shape1, shape2, grads, strided), run(torch, shape1, shape2, grads, strided)
    if isinstance(theirs, str) or isinstance(mine, str):
        assert mine == theirs
        return
    assert mine[:3] == theirs[:3]  # graph, shape, version
    for got, expected in zip(mine[3:], theirs[3:]):
        if expected is not None:
            np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_the_functions_matmul_is_built_from_refuse_like_pytorchs(torch):
    def errors(lib):
        found = []
        for attempt in (lambda: lib.mm(lib.ones(3), lib.ones(3, 2)), lambda: lib.mm(lib.ones(2, 3), lib.ones(3)),
                        lambda: lib.mv(lib.ones(2, 3), lib.ones(3, 1)), lambda: lib.mv(lib.ones(2, 3), lib.ones(4)),
                        lambda: lib.bmm(lib.ones(2, 3), lib.ones(2, 3, 2)),
                        lambda: lib.bmm(lib.ones(2, 2, 3), lib.ones(3, 3, 2)),
                        lambda: lib.dot(lib.ones(2, 3), lib.ones(3))):
            with pytest.raises(RuntimeError) as info:
                attempt()
            found.append(pytorch_part(info.value))
        return found

    assert errors(minigrad) == errors(torch)


DTYPE_MIXES = {
    "mm": lambda lib, f, d: f.mm(d[:3, :2]),
    "mm, shapes wrong too": lambda lib, f, d: f.mm(d),
    "matmul of an int and a float": lambda lib, f, d: f @ d[:3, :2].long(),
    "mv": lambda lib, f, d: f.mv(d[:3, 0]),
    "mv, shapes wrong too": lambda lib, f, d: f.mv(d[:, 0]),
    "bmm": lambda lib, f, d: f[None].bmm(d[None, :3, :2]),
    "bmm, shapes wrong too": lambda lib, f, d: f[None].bmm(d[None]),
    "dot": lambda lib, f, d: f[0].dot(d[:3, 0]),
    "dot, shapes wrong too": lambda lib, f, d: f[0].dot(d[:, 0]),
    "linear: bias and weight": lambda lib, f, d: lib.nn.functional.linear(f, d[:2, :3], f[:, 0]),
    "linear: input and weight": lambda lib, f, d: lib.nn.functional.linear(d[:2, :3], f, f[:, 0]),
    "linear without bias": lambda lib, f, d: lib.nn.functional.linear(f, d[:2, :3]),
    "batched linear: input and weight": lambda lib, f, d: lib.nn.functional.linear(f[None], d[:2, :3], d[:2, 0]),
    "batched linear: bias and weight": lambda lib, f, d: lib.nn.functional.linear(f[None], d[:2, :3], f[:, 0]),
}


@pytest.mark.parametrize("make", DTYPE_MIXES.values(), ids=DTYPE_MIXES.keys())
def test_matrix_products_refuse_mixed_dtypes_in_pytorchs_words(make, torch):
    def error(lib):
        f, d = lib.ones(2, 3), lib.ones(4, 3, dtype=lib.float64)
        with pytest.raises(RuntimeError) as info:
            make(lib, f, d)
        return pytorch_part(info.value)

    assert error(minigrad) == error(torch)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_a_product_of_two_matrices_has_numpys_matmul_bits(dtype):
    # mm's forward and backward call ndarray.dot (cheaper); it must be np.matmul bit for bit,
    # in every layout (a transposed operand is a column-major view) and shape (vectors as matrices).
    rng = np.random.default_rng(7)
    for m, k, n in [(1, 1, 1), (1, 5, 1), (7, 1, 3), (100, 2, 16), (100, 16, 16), (100, 16, 1), (33, 65, 17)]:
        for a_t, b_t in [(False, False), (True, False), (False, True), (True, True)]:
            a = (rng.standard_normal((k, m)).T if a_t else rng.standard_normal((m, k))) * 8
            b = (rng.standard_normal((n, k)).T if b_t else rng.standard_normal((k, n))) * 8
            a, b = a.astype(dtype), b.astype(dtype)
            x = minigrad.tensor(a, requires_grad=dtype is not np.int64)
            with minigrad.no_grad():
                got = (x @ minigrad.tensor(b)).numpy()
            np.testing.assert_array_equal(got, np.matmul(a, b))
            if dtype is not np.int64:
                g = rng.standard_normal((m, n)).astype(dtype)
                (x @ minigrad.tensor(b)).backward(minigrad.tensor(g))
                np.testing.assert_array_equal(x.grad.numpy(), np.matmul(g, b.T))
                bias = rng.standard_normal(n).astype(dtype)  # linear: one addmm, with weight b.T seen through .t()
                with minigrad.no_grad():
                    got = minigrad.nn.functional.linear(x, minigrad.tensor(b.T), minigrad.tensor(bias)).numpy()
                np.testing.assert_array_equal(got, np.matmul(a, b) + bias)

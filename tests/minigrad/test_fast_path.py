"""minigrad/fast_path.py: the speed tricks change nothing a user can see.

A leaf keeps a gradient without a copy only when nobody else can see it (else two
``.grad`` would share memory, or a later in-place accumulation would change a tensor
the user holds); NumPy's warnings are off only inside minigrad's own calls; the
garbage collector's thresholds come back after a long graph is freed.
"""

import gc
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import fast_path, graph


def _leaves():
    return (minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True),
            minigrad.tensor([4.0, 5.0, 6.0], requires_grad=True))


@pytest.fixture
def copies(monkeypatch):
    """Counts the new ``.grad`` buffers ``accumulate_grad`` allocates to copy a gradient into."""
    made = []
    real = graph._laid_out_like

    def counting(array):
        made.append(array.shape)
        return real(array)

    monkeypatch.setattr(graph, "_laid_out_like", counting)
    return made


def test_a_fresh_gradient_becomes_grad_without_a_copy(copies):
    a, b = _leaves()
    (a * b).sum().backward()
    assert copies == []  # grad * b and grad * a are new arrays, each going to one leaf
    np.testing.assert_array_equal(a.grad.numpy(), [4.0, 5.0, 6.0])
    np.testing.assert_array_equal(b.grad.numpy(), [1.0, 2.0, 3.0])


def test_where_reference_counts_cannot_tell_every_gradient_is_copied(copies, monkeypatch):
    monkeypatch.setattr(fast_path, "_REFCOUNTS_TELL", False)  # as on a CPython that hides a holder
    a, b = _leaves()
    (a * b).sum().backward()
    assert len(copies) == 2
    np.testing.assert_array_equal(a.grad.numpy(), [4.0, 5.0, 6.0])


def test_the_reference_counts_take_compares_are_measured_on_this_python():
    class Holder:
        pass

    alone, other = Holder(), Holder()
    alone._data = np.zeros((3, 2)).T
    alone._base = Holder()
    counts = fast_path._reference_counts(alone)
    assert counts == (fast_path._ARRAY_REFS_WHEN_ALONE, fast_path._BASE_REFS_WHEN_ALONE,
                      fast_path._OWNER_REFS_WHEN_ALONE)
    other._data = alone._data
    assert fast_path._reference_counts(alone)[0] > fast_path._ARRAY_REFS_WHEN_ALONE  # one more holder shows
    other._base = alone._base
    assert fast_path._reference_counts(alone)[2] > fast_path._OWNER_REFS_WHEN_ALONE


def test_a_linear_layers_weight_gradient_is_kept_without_a_copy(copies):
    # Its gradient reaches AccumulateGrad as a view: (grad.mT @ x).mT seen through TBackward's .t().
    minigrad.manual_seed(0)
    layer = minigrad.nn.Linear(5, 3)
    x = minigrad.randn(8, 5)
    layer(x).sum().backward()
    assert copies == []
    # (float32 sums of 8 numbers against float64 ones: PyTorch's float32 tolerances, as assert_close's;
    # rtol alone failed now and then where a column's sum nearly cancels)
    close = {"rtol": 1.3e-6, "atol": 1e-5}
    np.testing.assert_allclose(layer.weight.grad.numpy(), np.ones((8, 3)).T @ x.numpy(), **close)
    assert layer.weight.grad.is_contiguous()  # the layout a new .grad gets (as PyTorch's)
    layer(x).sum().backward()  # accumulates in place into what it kept
    np.testing.assert_allclose(layer.weight.grad.numpy(), 2 * np.ones((8, 3)).T @ x.numpy(), **close)


def test_a_view_of_the_users_gradient_is_copied(copies):
    a = minigrad.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    given = minigrad.tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])
    a.t().backward(given)  # TBackward sends given.t(), a view of the user's tensor
    assert copies == [(3, 2)]
    a.grad.add_(10.0)  # must not change `given`
    np.testing.assert_array_equal(given.numpy(), [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]])


def test_a_view_whose_memory_another_leaf_gets_too_is_not_shared():
    a = minigrad.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    b = minigrad.tensor([[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], requires_grad=True)
    (a.t() * 3 + b).sum().backward()  # AddBackward sends one gradient on to b and through a.t()
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    b.grad.add_(100.0)
    np.testing.assert_array_equal(a.grad.numpy(), np.full((3, 2), 3.0))


def test_one_gradient_sent_to_two_leaves_is_copied(copies):
    a, b = _leaves()
    (a + b).sum().backward()  # AddBackward passes the same gradient to both
    assert len(copies) == 2
    assert not np.shares_memory(a.grad.numpy(), b.grad.numpy())
    (a + b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, 2.0, 2.0])
    np.testing.assert_array_equal(b.grad.numpy(), [2.0, 2.0, 2.0])


def test_the_users_gradient_is_copied():
    a, _ = _leaves()
    given = minigrad.tensor([1.0, 1.0, 1.0])
    a.clone().backward(given)  # CloneBackward passes it on unchanged
    a.clone().backward(given)  # accumulates in place into .grad: must not change `given`
    np.testing.assert_array_equal(given.numpy(), [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(a.grad.numpy(), [2.0, 2.0, 2.0])


def test_a_gradient_a_hook_kept_is_copied():
    a, b = _leaves()
    seen = []
    a.register_hook(lambda grad: seen.append(grad))
    (a * b).sum().backward()
    (a * b).sum().backward()
    np.testing.assert_array_equal(seen[0].numpy(), [4.0, 5.0, 6.0])  # unchanged by the second pass
    np.testing.assert_array_equal(a.grad.numpy(), [8.0, 10.0, 12.0])


def test_gradients_a_node_post_hook_kept_are_copied():
    a, b = _leaves()
    seen = []
    y = a * b
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs))
    y.sum().backward()
    a.grad.add_(1.0)  # changes .grad in place: what the hook kept must not follow
    np.testing.assert_array_equal(seen[0][0].numpy(), [4.0, 5.0, 6.0])


def test_a_custom_functions_gradient_is_copied():
    held = minigrad.tensor([7.0, 8.0, 9.0])

    class Returns(minigrad.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad):
            return held  # a tensor the user holds

    a, _ = _leaves()
    Returns.apply(a).sum().backward()
    Returns.apply(a).sum().backward()
    np.testing.assert_array_equal(held.numpy(), [7.0, 8.0, 9.0])
    np.testing.assert_array_equal(a.grad.numpy(), [14.0, 16.0, 18.0])


def test_retain_grad_and_the_leaf_do_not_share():
    a, _ = _leaves()
    y = a * 2.0
    y.retain_grad()
    z = y * 1.0
    z.backward(minigrad.ones(3))
    assert not np.shares_memory(y.grad.numpy(), a.grad.numpy())


def test_numpy_warnings_stay_on_outside_minigrad():
    big = minigrad.tensor([3e38])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert minigrad.isinf(big * big).item()  # no warning from minigrad, as from PyTorch
    with pytest.warns(RuntimeWarning, match="overflow"):
        np.float32(3e38) * np.float32(3e38)  # the user's own NumPy settings are back


def test_a_long_graph_makes_full_collections_rarer_until_backward():
    user = gc.get_threshold()
    gc.set_threshold(500, 9, 8)
    try:
        x = minigrad.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(fast_path.PACE_FROM + 2 * fast_path.PACE_EVERY):  # (counting starts at a multiple)
            y = y * 1.0
        assert gc.get_threshold()[:2] == (500, 9)  # young collections as the user set them
        assert gc.get_threshold()[2] > 8
        y.backward()
        assert gc.get_threshold() == (500, 9, 8)
        assert x.grad.item() == 1.0
    finally:
        gc.set_threshold(*user)


def test_a_training_steps_graph_leaves_the_collector_alone():
    before = gc.get_threshold()
    a, b = _leaves()
    for _ in range(50):
        (a * b).sum().backward()
    assert gc.get_threshold() == before


# --- the cheaper sum_to_size and full-reduction backward give what PyTorch gives -------------
@pytest.mark.parametrize("shape, size", [((5, 4), (4,)), ((5, 4), (1, 4)), ((3, 1, 4), (1, 4)),
                                         ((3, 2, 4), (2, 1)), ((2, 3), (2, 3)), ((), ())])
def test_sum_to_size_sums_what_broadcasting_repeated(shape, size):
    torch = pytest.importorskip("torch")
    values = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    expected = torch.tensor(values).sum_to_size(size).numpy()
    got = minigrad.tensor(values).sum_to_size(size)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("shape, size", [((2, 3), (3, 2)), ((2,), (2, 2)), ((4, 3), (2, 3))])
def test_sum_to_size_refuses_a_shape_that_does_not_broadcast_as_pytorch(shape, size):
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError) as expected:
        torch.zeros(shape).sum_to_size(size)
    with pytest.raises(RuntimeError) as got:
        minigrad.zeros(shape).sum_to_size(size)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("reduce", ["sum", "mean"])
def test_a_full_reductions_gradient_is_broadcast_from_0_d(reduce):
    # d/dx of sum(x) is ones; of mean(x), 1/6; and a second derivative through it is zero.
    x = minigrad.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    (grad,) = minigrad.autograd.grad(getattr(x * x, reduce)(), x, create_graph=True)
    scale = 1.0 if reduce == "sum" else 1 / 6
    np.testing.assert_allclose(grad.detach().numpy(), 2 * scale * x.detach().numpy(), rtol=1e-6)
    (second,) = minigrad.autograd.grad(grad.sum(), x)
    np.testing.assert_allclose(second.numpy(), np.full((2, 3), 2 * scale, np.float32), rtol=1e-6)
    assert minigrad.tensor([3.0]).shape[:0] == ()  # (a slice of a Size is a Size of the same ints)


# --- 8. in-place arithmetic that records nothing ----------------------------------------------
IN_PLACE = {"+=": (lambda t, o: t.__iadd__(o), np.add), "-=": (lambda t, o: t.__isub__(o), np.subtract),
            "*=": (lambda t, o: t.__imul__(o), np.multiply), "/=": (lambda t, o: t.__itruediv__(o), np.divide)}


@pytest.fixture
def direct_writes(monkeypatch):
    """Counts the in-place ops ``write_in_place`` did."""
    done = []
    real = fast_path.write_in_place

    def counting(ufunc, tensor, other):
        wrote = real(ufunc, tensor, other)
        done.append(wrote)
        return wrote

    monkeypatch.setattr(minigrad.ops.inplace, "write_in_place", counting)
    return done


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("op", list(IN_PLACE))
def test_an_unrecorded_in_place_op_writes_numpys_result_into_the_same_memory(op, dtype, direct_writes):
    apply, ufunc = IN_PLACE[op]
    a = np.array([[1, -2, 3], [4, 5, -6]]).astype(dtype)
    b = np.array([[2, 2, -1], [3, 1, 2]]).astype(dtype)
    p = minigrad.tensor(a.copy(), requires_grad=dtype is not np.int64)
    memory, version = p.data_ptr(), p._version
    if op == "/=" and dtype is np.int64:
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            apply(p, minigrad.tensor(b))
        assert direct_writes == [False]
        return
    with minigrad.no_grad():
        result = apply(p, minigrad.tensor(b))
    assert result is p and p.data_ptr() == memory and p._version == version + 1
    assert direct_writes == [True]
    assert p.dtype == minigrad.tensor(a).dtype
    np.testing.assert_array_equal(p.detach().numpy(), ufunc(a, b))


def test_an_in_place_op_that_broadcasts_or_records_goes_the_long_way(direct_writes):
    p = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with minigrad.no_grad():
        p -= minigrad.tensor([1.0, 1.0])  # broadcast: the result array is made, then copied in
    np.testing.assert_array_equal(p.detach().numpy(), [[0.0, 1.0], [2.0, 3.0]])
    h = p * 1
    h += p  # recorded: its node is AddBackward0
    assert h.grad_fn.name() == "AddBackward0"
    assert direct_writes == [False, False]
    with pytest.raises(RuntimeError, match=r"output with shape \[2\] doesn't match the broadcast shape \[2, 2\]"):
        with minigrad.no_grad():
            minigrad.tensor([1.0, 2.0]).add_(p)


def test_an_unrecorded_in_place_write_still_invalidates_a_saved_tensor(direct_writes):
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    out = (y * y).sum()
    with minigrad.no_grad():
        y.mul_(minigrad.tensor([2.0, 2.0]))
    assert direct_writes == [True]
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        out.backward()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("size", [7, fast_path.ZERO_WHERE_BY_BITS_FROM - 1, fast_path.ZERO_WHERE_BY_BITS_FROM,
                                  3 * fast_path.ZERO_WHERE_BY_BITS_FROM + 5])
def test_zero_where_is_np_where_bit_for_bit(dtype, size):
    """Both ways (np.where below the size, a bitwise AND from it on): +0. where dropped, whatever
    was there (inf, nan, -0.), and every bit of a kept value, a nan's sign and payload too."""
    rng = np.random.default_rng(size)
    values = rng.standard_normal(size).astype(dtype)
    special = np.array([np.inf, -np.inf, np.nan, -np.nan, -0.0, 0.0], dtype=dtype)
    values[rng.integers(size, size=3 * len(special))] = np.tile(special, 3)
    drop = rng.random(size) < 0.5
    before = values.tobytes()
    got = fast_path.zero_where(drop, values)
    expected = np.where(drop, 0, values)
    assert got.dtype == values.dtype and got.shape == values.shape
    assert got.tobytes() == expected.tobytes()
    assert values.tobytes() == before  # (the input is left alone)


def test_relu_backward_on_a_large_batch_is_pytorchs_select(torch):
    """relu's backward past the size where zero_where goes bitwise: exact zeros below 0 even for an
    inf or nan gradient, the gradient through a nan input, +0. (not -0.) for a negative one."""
    n = 4 * fast_path.ZERO_WHERE_BY_BITS_FROM
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    g = rng.standard_normal(n).astype(np.float32)
    x[:4], g[:4] = [np.nan, -1.0, -2.0, 0.0], [5.0, np.inf, -3.0, np.nan]
    grads = []
    for lib in (minigrad, torch):
        leaf = lib.tensor(x, requires_grad=True)
        leaf.relu().backward(lib.tensor(g))
        grads.append(np.asarray(leaf.grad.tolist(), dtype=np.float32))
    assert grads[0].tobytes() == grads[1].tobytes()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64])
@pytest.mark.parametrize("rows, inner, cols", [(3, 4, 5), (1, 7, fast_path.MATMUL_FROM - 1), (1, 7, fast_path.MATMUL_FROM),
                                               (256, 128, 784), (0, 3, 4)])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "strided"])
def test_matrix_product_is_np_matmul_bit_for_bit(dtype, rows, inner, cols, layout):
    """Either NumPy call, by the output's size, gives matmul's bits for the operands BLAS takes as
    they are (contiguous, or a transposed view: a gradient's mT), and matmul's values for strided
    ones (slicing makes them; there dot and matmul may round a one-row product differently)."""
    rng = np.random.default_rng(rows + cols)

    def operand(r, c):
        if layout == "transposed":
            return (rng.standard_normal((c, r)) * 4).astype(dtype).T
        if layout == "strided":
            return (rng.standard_normal((r, 2 * c)) * 4).astype(dtype)[:, ::2]
        return (rng.standard_normal((r, c)) * 4).astype(dtype)

    a, b = operand(rows, inner), operand(inner, cols)
    got = fast_path.matrix_product(a, b)
    expected = np.matmul(a, b)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if layout == "strided":
        np.testing.assert_allclose(got, expected, rtol=1e-2 if dtype == np.float16 else 1e-5, atol=1e-5)
    else:
        assert got.tobytes() == expected.tobytes()


def test_a_linear_layers_products_go_through_matrix_product(monkeypatch):
    """The forward product (3 x 4 outputs: under MATMUL_FROM) and the weight gradient's (4 x 20,000:
    over it) both come to matrix_product, and the gradient is still the product it should be."""
    calls = []
    real = fast_path.matrix_product

    def spy(a, b):
        calls.append(a.shape[0] * b.shape[1] >= fast_path.MATMUL_FROM)
        return real(a, b)

    for module in ("minigrad.ops.linalg", "minigrad.plain_backward"):
        monkeypatch.setattr(f"{module}.matrix_product", spy)
    x = minigrad.randn(3, 20_000)
    layer = minigrad.nn.Linear(20_000, 4)
    layer(x).sum().backward()
    assert calls == [False, True]
    expected = np.matmul(np.ones((4, 3), np.float32), x.numpy())
    np.testing.assert_allclose(layer.weight.grad.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int64])
@pytest.mark.parametrize("shape", [(5,), (4, 3), (128, 10), (300, 1), (64, fast_path.SHORT_ROW),
                                   (64, fast_path.SHORT_ROW + 1), (4, 32, 5), (fast_path.MANY_NUMBERS // 8, 8)])
def test_last_dim_max_is_numpys_max_of_each_row(shape, dtype):
    """Both ways (NumPy's reduction, or down the columns of a transposed copy): each row's max,
    kept as a dim of 1, a nan winning its row, infs where they are largest."""
    rng = np.random.default_rng(len(shape) + shape[-1])
    array = (rng.standard_normal(shape) * 100).astype(dtype)
    if dtype != np.int64 and array.size > 3:
        flat = array.reshape(-1)
        flat[rng.integers(flat.size, size=3)] = [np.nan, np.inf, -np.inf]
    got = fast_path.last_dim_max(array)
    expected = np.maximum.reduce(array, axis=-1, keepdims=True)
    assert got.dtype == array.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)

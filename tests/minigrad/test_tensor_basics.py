"""Tensor basics a learner sees first: repr, dtypes, promotion, shape attributes, conversions."""


import warnings

import numpy as np
import pytest

import minigrad

HINT = "\n\nIn plain words: "


def in_minigrad_words(text):
    """PyTorch's text as minigrad must word it: torch. read as minigrad."""
    return text.replace("torch.", "minigrad.")


# --- repr ------------------------------------------------------------------------------------

REPRS = {
    "float_vector": lambda lib: lib.tensor([1.0, 2.0]),
    "requires_grad": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True),
    "grad_fn": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True) * 2,
    "grad_fn_0d": lambda lib: lib.tensor(2.0, requires_grad=True) * 3,
    "zero_d_whole": lambda lib: lib.tensor(3.0),
    "zero_d_fraction": lambda lib: lib.tensor(3.5),
    "zero_d_int": lambda lib: lib.tensor(7),
    "bool": lambda lib: lib.tensor([True, False]),
    "int": lambda lib: lib.tensor([1, 2, 3]),
    "negative_int": lambda lib: lib.tensor([-1, 20, 3]),
    "int32": lambda lib: lib.tensor([1, 2], dtype=lib.int32),
    "float64": lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64),
    "float64_requires_grad": lambda lib: lib.tensor([1.5], dtype=lib.float64, requires_grad=True),
    "fractions": lambda lib: lib.tensor([1.5, 2.25]),
    "mixed_magnitudes": lambda lib: lib.tensor([0.1, 100.0]),
    "negative": lambda lib: lib.tensor([-1.0, 0.5]),
    "matrix": lambda lib: lib.tensor([[1.0, 2.0], [3.0, 4.0]]),
    "matrix_grad_fn": lambda lib: lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).exp(),
    "three_d": lambda lib: lib.ones(2, 1, 2),
    "empty": lambda lib: lib.tensor([]),
}


@pytest.mark.parametrize("name", list(REPRS))
def test_repr_matches_torch(name, torch):
    """repr(t) is PyTorch's text (torch. read as minigrad.) for vectors, 0-d, bool, int, dtypes, 2-D, grad_fn."""
    assert repr(REPRS[name](minigrad)) == in_minigrad_words(repr(REPRS[name](torch)))


def test_repr_examples_by_hand():
    """A few reprs written out: the learner's first outputs."""
    assert repr(minigrad.tensor([1.0, 2.0], requires_grad=True)) == "tensor([1., 2.], requires_grad=True)"
    assert repr(minigrad.tensor(3.5)) == "tensor(3.5000)"
    assert repr(minigrad.tensor([1, 2])) == "tensor([1, 2])"
    assert repr(minigrad.tensor(2.0, requires_grad=True) * 3) == "tensor(6., grad_fn=<MulBackward0>)"


# --- conversions --------------------------------------------------------------------------


def test_numpy_of_a_tensor_requiring_grad_is_an_error(torch):
    """numpy() on a tensor that requires grad raises PyTorch's message."""
    with pytest.raises(RuntimeError) as expected:
        torch.tensor([1.0], requires_grad=True).numpy()
    with pytest.raises(RuntimeError) as got:
        minigrad.tensor([1.0], requires_grad=True).numpy()
    assert str(got.value).split(HINT)[0] == in_minigrad_words(str(expected.value))


def test_numpy_after_detach_works():
    """detach().numpy() gives the values."""
    np.testing.assert_array_equal(minigrad.tensor([1.0, 2.0], requires_grad=True).detach().numpy(), [1.0, 2.0])


def test_item_and_tolist_work_when_requiring_grad(torch):
    """item() and tolist() are allowed on tensors that require grad (only numpy() refuses), as in PyTorch."""

    def run(lib):
        t = lib.tensor([1.5], requires_grad=True)
        return t.item(), t.tolist(), (t * 2).tolist()

    assert run(minigrad) == run(torch) == (1.5, [1.5], [3.0])


def test_item_of_several_elements_is_an_error(torch):
    """item() of a 2-element tensor raises PyTorch's 'a Tensor with 2 elements cannot be converted to Scalar'."""
    with pytest.raises(RuntimeError) as expected:
        torch.tensor([1.0, 2.0]).item()
    with pytest.raises(RuntimeError) as got:
        minigrad.tensor([1.0, 2.0]).item()
    assert str(got.value).split(HINT)[0] == in_minigrad_words(str(expected.value))


def test_item_returns_python_numbers():
    """item() gives a Python float for float tensors, int for int tensors, bool for bool tensors."""
    assert type(minigrad.tensor(1.5).item()) is float
    assert type(minigrad.tensor(3).item()) is int
    assert type(minigrad.tensor(True).item()) is bool


def test_tolist_of_nested_data():
    """tolist() returns nested Python lists; of a 0-d tensor, a Python number."""
    assert minigrad.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert minigrad.tensor(2.5).tolist() == 2.5


def test_np_asarray_of_a_tensor():
    """np.asarray(t) gives the values (via __array__)."""
    np.testing.assert_array_equal(np.asarray(minigrad.tensor([1.0, 2.0])), [1.0, 2.0])


# --- dtypes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("data, expected", [
    (1.0, minigrad.float32),
    ([1.0, 2.0], minigrad.float32),
    ([1, 2.0], minigrad.float32),
    (1, minigrad.int64),
    ([1, 2], minigrad.int64),
    (True, minigrad.bool),
    (np.array([1.0, 2.0]), minigrad.float64),
    (np.array([1.0], dtype=np.float32), minigrad.float32),
    (np.array([1, 2], dtype=np.int32), minigrad.int32),
    (np.array([1, 2], dtype=np.int64), minigrad.int64),
], ids=["float", "float_list", "mixed_list", "int", "int_list", "bool", "np_float64", "np_float32",
        "np_int32", "np_int64"])
def test_dtype_of_new_tensor(data, expected):
    """Python floats give float32, Python ints int64, bools bool; NumPy arrays keep their dtype."""
    assert minigrad.tensor(data).dtype == expected


def test_dtype_argument_wins():
    """tensor([1, 2], dtype=float64) is float64."""
    assert minigrad.tensor([1, 2], dtype=minigrad.float64).dtype == minigrad.float64


def test_dtypes_are_numpy_dtypes():
    """minigrad.float32 etc. are NumPy dtypes."""
    assert minigrad.float32 == np.dtype(np.float32)
    assert minigrad.float64 == np.dtype(np.float64)
    assert minigrad.int64 == np.dtype(np.int64)
    assert minigrad.bool == np.dtype(np.bool_)


PROMOTIONS = {
    "float32_times_python_float": lambda lib: lib.ones(2) * 2.5,
    "float32_times_numpy_float64_scalar": lambda lib: lib.ones(2) * np.float64(2.5),
    "int64_times_python_float": lambda lib: lib.ones(2, dtype=lib.int64) * 2.5,
    "int64_plus_python_int": lambda lib: lib.ones(2, dtype=lib.int64) + 1,
    "float32_plus_0d_float64": lambda lib: lib.ones(2) + lib.tensor(1.0, dtype=lib.float64),
    "float32_plus_float64": lambda lib: lib.ones(2) + lib.ones(2, dtype=lib.float64),
    "int64_plus_0d_float64": lambda lib: lib.ones(2, dtype=lib.int64) + lib.tensor(1.0, dtype=lib.float64),
    "int64_div_int64": lambda lib: lib.tensor([1, 2]) / lib.tensor([2, 2]),
    "bool_plus_python_int": lambda lib: lib.tensor([True]) + 1,
    "float32_pow_python_int": lambda lib: lib.ones(2) ** 2,
}


@pytest.mark.parametrize("name", list(PROMOTIONS))
def test_promotion_matches_torch(name, torch):
    """Result dtypes follow PyTorch's promotion (a Python number never widens a float32 tensor)."""
    got = PROMOTIONS[name](minigrad).dtype
    expected = PROMOTIONS[name](torch).dtype
    assert str(got) == str(expected).replace("torch.", "minigrad.")


def test_float32_times_python_float_stays_float32():
    """ones(2) * 2.5 is float32, not NumPy's float64."""
    assert (minigrad.ones(2) * 2.5).dtype == minigrad.float32


# --- shape attributes ---------------------------------------------------------------------------


def test_shape_attributes_by_hand():
    """A 2x3x4 tensor: shape (2, 3, 4), ndim 3, size() (2, 3, 4), size(1) 3, size(-1) 4, dim() 3, numel() 24."""
    t = minigrad.ones(2, 3, 4)
    assert t.shape == (2, 3, 4)
    assert t.ndim == 3 and t.dim() == 3
    assert t.size() == (2, 3, 4)
    assert t.size(1) == 3 and t.size(-1) == 4
    assert t.numel() == 24


def test_T_reverses_a_matrix_and_mT_swaps_the_last_two(torch):
    """ones(2, 3).T has shape (3, 2); ones(2, 3, 4).mT has shape (2, 4, 3), values moved as in PyTorch."""
    assert minigrad.ones(2, 3).T.shape == (3, 2)
    assert minigrad.ones(2, 3, 4).mT.shape == (2, 4, 3)
    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(minigrad.tensor(data).mT.numpy(), np.swapaxes(data, -1, -2))
    m = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(minigrad.tensor(m).T.numpy(), torch.tensor(m).T.numpy())


def test_shape_attributes_match_torch(torch):
    """shape, size(), size(d), ndim, dim(), numel(), len() agree with PyTorch for a few shapes."""

    def describe(lib, shape):
        t = lib.tensor(np.ones(shape, dtype=np.float32))
        return (tuple(t.shape), tuple(t.size()), [t.size(d) for d in range(-t.dim(), t.dim())],
                t.ndim, t.dim(), t.numel(), len(t) if t.dim() else None)

    for shape in [(), (1,), (3,), (2, 3), (2, 1, 4)]:
        assert describe(minigrad, shape) == describe(torch, shape)


def test_shape_of_0d_tensor():
    """A 0-d tensor has shape (), ndim 0, numel 1."""
    t = minigrad.tensor(5.0)
    assert t.shape == () and t.ndim == 0 and t.numel() == 1


def test_size_out_of_range_is_an_index_error(torch):
    """size(5) on a 2-D tensor raises IndexError, as in PyTorch."""
    with pytest.raises(IndexError):
        torch.ones(2, 3).size(5)
    with pytest.raises(IndexError):
        minigrad.ones(2, 3).size(5)


def test_requires_grad_and_is_leaf_of_a_new_tensor():
    """A new tensor is a leaf, requires_grad False, grad None, grad_fn None."""
    t = minigrad.tensor([1.0])
    assert t.is_leaf and not t.requires_grad and t.grad is None and t.grad_fn is None


STRIDES = {
    "new": lambda lib: lib.zeros(2, 3),
    "transposed": lambda lib: lib.zeros(2, 3).t(),
    "expanded": lambda lib: lib.zeros(2, 3).expand(4, 2, 3),
    "every other column": lambda lib: lib.zeros(2, 3)[:, ::2],
    "a size-1 dim": lambda lib: lib.zeros(3, 1),
    "unsqueezed": lambda lib: lib.zeros(2, 3).unsqueeze(1),
    "empty": lambda lib: lib.zeros(0, 3),
    "0-d": lambda lib: lib.tensor(1.0),
    "float64 row": lambda lib: lib.zeros(4, 5, dtype=lib.float64)[1],
}


@pytest.mark.parametrize("name", STRIDES)
def test_stride_nbytes_and_itemsize_are_pytorchs(name, torch):
    def seen(lib):
        t = STRIDES[name](lib)
        outcome = [t.stride(), t.nbytes, t.itemsize]
        for dim in (0, -1, 3, 1.0):
            try:
                outcome.append(t.stride(dim))
            except (IndexError, TypeError) as error:
                outcome.append((type(error).__name__, str(error).split("\n\n")[0]))
        return outcome

    assert seen(minigrad) == seen(torch)


def test_casting_nan_inf_or_too_large_numbers_to_integers_is_quiet_and_gives_pytorchs_numbers(torch):
    # (C's cast of such a number is undefined; both libraries give the CPU's answer, and PyTorch no warning)
    def run(lib):
        values = lib.tensor([1e10, -1e10, float("nan"), float("inf"), 3e9, 300.0, -1.0])
        return [values.to(getattr(lib, d)).tolist() for d in ("int32", "int64", "int16", "uint8", "bool")]

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mine = run(minigrad)
    assert mine == run(torch)

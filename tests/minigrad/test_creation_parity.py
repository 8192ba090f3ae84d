"""Creating tensors, devices and dtypes as PyTorch does: names, printed forms, values, errors.

Expectations come from PyTorch itself (the ``torch`` fixture), from NumPy, or by hand.
"""

import copy
import pickle
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import dtypes
from torch_parity import HINT, assert_same_error, in_minigrad_words

DTYPE_NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


# --- dtypes ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", DTYPE_NAMES + ["float", "double", "long", "int", "half", "short"])
def test_dtype_prints_as_pytorchs(name, torch):
    """repr and str of minigrad.X are PyTorch's (minigrad. for torch.), aliases print their canonical name."""
    mine, theirs = getattr(minigrad, name), getattr(torch, name)
    assert repr(mine) == in_minigrad_words(repr(theirs))
    assert str(mine) == in_minigrad_words(str(theirs))
    assert (mine.is_floating_point, mine.is_signed, mine.itemsize) == (
        theirs.is_floating_point, theirs.is_signed, theirs.itemsize)


def test_a_tensors_dtype_prints_as_pytorchs(torch):
    for data in ([1.0], [1], [True], np.array([1.0]), np.array([1], dtype=np.int32)):
        assert repr(minigrad.tensor(data).dtype) == in_minigrad_words(repr(torch.tensor(data).dtype))


def test_dtypes_work_where_numpy_dtypes_do():
    """NumPy reads minigrad dtypes through their .dtype; they equal and hash like NumPy's."""
    assert np.zeros(2, dtype=minigrad.float64).dtype == np.float64
    assert np.ones(2).astype(minigrad.int32).dtype == np.int32
    assert np.dtype(minigrad.bool) == np.bool_
    assert minigrad.float32 == np.dtype(np.float32) and np.dtype(np.float32) == minigrad.float32
    assert minigrad.float32 != minigrad.float64 and minigrad.float32 != np.float64
    table = {np.dtype(np.float32): "by numpy"}
    assert table[minigrad.float32] == "by numpy"
    assert dtypes.of(np.dtype(np.int64)) is minigrad.int64


def test_one_object_per_dtype_even_through_copy_and_pickle():
    assert minigrad.float is minigrad.float32 and minigrad.long is minigrad.int64
    assert copy.deepcopy(minigrad.float64) is minigrad.float64
    assert pickle.loads(pickle.dumps(minigrad.int16)) is minigrad.int16
    assert minigrad.tensor([1.0]).dtype is minigrad.float32


@pytest.mark.parametrize("a", DTYPE_NAMES)
@pytest.mark.parametrize("b", DTYPE_NAMES)
def test_result_type_of_two_tensors_is_pytorchs(a, b, torch):
    """The dtype of x + y for every pair of dtypes, as PyTorch's promote_types."""
    got = dtypes.result_type(minigrad.ones(2, dtype=getattr(minigrad, a)), minigrad.ones(2, dtype=getattr(minigrad, b)))
    assert repr(got) == in_minigrad_words(repr(torch.promote_types(getattr(torch, a), getattr(torch, b))))


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "maximum", "minimum", "pow", "eq", "lt"])
def test_every_binary_op_promotes_int_with_float32_to_float32(op, torch):
    def run(lib):
        return getattr(lib, op)(lib.tensor([1, 2, 3]), lib.tensor([0.5, 1.5, 2.5])).dtype

    assert repr(run(minigrad)) == in_minigrad_words(repr(run(torch)))


def test_default_dtype_can_be_changed_and_restored(torch):
    try:
        minigrad.set_default_dtype(minigrad.float64)
        assert minigrad.get_default_dtype() is minigrad.float64
        assert minigrad.tensor(1.5).dtype == minigrad.zeros(1).dtype == minigrad.float64
        assert (minigrad.tensor([1, 2]) / 2).dtype == minigrad.float64
        assert repr(minigrad.tensor([1.5])) == "tensor([1.5000])"  # the default dtype is not named
    finally:
        minigrad.set_default_dtype(minigrad.float32)
    assert minigrad.tensor(1.5).dtype is minigrad.float32
    assert_same_error(lambda lib: lib.set_default_dtype(lib.int64), torch, expect_hint=False)
    assert_same_error(lambda lib: lib.set_default_dtype("float64"), torch, expect_hint=False)


def test_type_and_element_size(torch):
    for data in ([1.0], [1], [True]):
        for target in (None, "float64", "int32"):
            def run(lib):
                t = lib.tensor(data)
                t = t if target is None else t.to(getattr(lib, target))
                return t.type(), t.element_size(), t.is_floating_point(), lib.is_floating_point(t)

            assert run(minigrad) == tuple(in_minigrad_words(v) if isinstance(v, str) else v for v in run(torch))
    assert minigrad.tensor([1.5]).type("torch.DoubleTensor").dtype is minigrad.float64
    assert minigrad.tensor([1.5]).type(minigrad.LongTensor).dtype is minigrad.int64


# --- devices -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("cpu",), ("cuda",), ("cuda:1",), ("cuda", 0), ("cpu:0",), ("mps",)])
def test_device_objects_are_pytorchs(args, torch):
    mine, theirs = minigrad.device(*args), torch.device(*args)
    assert (repr(mine), str(mine), mine.type, mine.index) == (repr(theirs), str(theirs), theirs.type, theirs.index)
    assert (mine == "cpu") == (theirs == "cpu")
    assert mine == minigrad.device(*args) and hash(mine) == hash(minigrad.device(*args))


@pytest.mark.parametrize("bad", ["gpu", "CPU", "cuda:x", "cuda:01", "cpu ", "", "cuda:-1"])
def test_bad_device_strings_raise_pytorchs_errors(bad, torch):
    assert_same_error(lambda lib: lib.device(bad), torch, expect_hint=False)


def test_bad_device_arguments_raise_pytorchs_errors(torch):
    assert_same_error(lambda lib: lib.device("cuda:0", 1), torch, expect_hint=False)
    assert_same_error(lambda lib: lib.device(None), torch, expect_hint=False)
    assert_same_error(lambda lib: lib.device("cuda", -1), torch, expect_hint=False)


def test_a_tensor_lives_on_the_cpu(torch):
    t, theirs = minigrad.ones(2), torch.ones(2)
    assert (repr(t.device), t.is_cuda, t.is_cpu, t.get_device()) == (
        repr(theirs.device), theirs.is_cuda, theirs.is_cpu, theirs.get_device())
    assert t.cpu() is t and t.to("cpu") is t and t.to(minigrad.device("cpu")) is t
    assert minigrad.cuda.is_available() is torch.cuda.is_available() is False
    assert minigrad.cuda.device_count() == 0


@pytest.mark.parametrize("make", [
    lambda lib: lib.zeros(2, device="cuda"),
    lambda lib: lib.tensor([1.0], device="cuda"),
    lambda lib: lib.arange(3, device=lib.device("cuda:0")),
    lambda lib: lib.full((2,), 1.0, device="cuda"),
    lambda lib: lib.ones(2).cuda(),
    lambda lib: lib.ones(2).to("cuda"),
    lambda lib: lib.zeros_like(lib.ones(2), device="cuda"),
    lambda lib: lib.randn(2, device="cuda"),
])
def test_cuda_raises_pytorchs_error_without_a_gpu(make, torch):
    """PyTorch built without CUDA raises AssertionError; minigrad adds a hint."""
    assert_same_error(make, torch, expect_hint=True)


def test_pinned_memory_needs_a_gpu(torch):
    assert_same_error(lambda lib: lib.zeros(2, pin_memory=True), torch, expect_hint=False)
    assert_same_error(lambda lib: lib.tensor([1.0], pin_memory=True), torch, expect_hint=False)


def test_factories_accept_pytorchs_placement_keywords():
    t = minigrad.zeros(2, 3, device="cpu", layout=minigrad.strided, pin_memory=False, requires_grad=True)
    assert t.shape == (2, 3) and t.requires_grad and t.device == minigrad.device("cpu")
    with pytest.raises(NotImplementedError):
        minigrad.zeros(2, out=minigrad.zeros(2))


# --- to() -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda lib, t: t.to(lib.float64),
    lambda lib, t: t.to("cpu", lib.float16),
    lambda lib, t: t.to(lib.device("cpu"), lib.float64, copy=True),
    lambda lib, t: t.to(dtype=lib.int32),
    lambda lib, t: t.to(device="cpu", dtype=lib.int64),
    lambda lib, t: t.to(lib.ones(1, dtype=lib.int64)),
    lambda lib, t: t.to(lib.float64, non_blocking=True),
    lambda lib, t: t.to(lib.float32, copy=True),
])
def test_to_in_each_of_pytorchs_forms(call, torch):
    def run(lib):
        out = call(lib, lib.tensor([1.0, 2.0], requires_grad=True))
        return repr(out.dtype), out.tolist(), out.grad_fn.name() if out.grad_fn is not None else None

    mine, theirs = run(minigrad), run(torch)
    assert mine == (in_minigrad_words(theirs[0]), *theirs[1:])


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2).to(lib.float64, lib.float32),
    lambda lib: lib.ones(2).to("cpu", "cpu"),
    lambda lib: lib.ones(2).to(lib.ones(2), lib.float64),
    lambda lib: lib.ones(2).to("float32"),
])
def test_to_refuses_what_pytorch_refuses(call, torch):
    assert_same_error(call, torch, expect_hint=False)


# --- from data ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("data", ["abc", None, [1.0, None], {"a": 1}, [[1, 2], [3]], [[[1, 2], [3, 4]], [[5, 6], [7]]],
                                  [1, "a"], 2 ** 70])
def test_tensor_refuses_what_pytorch_refuses(data, torch):
    assert_same_error(lambda lib: lib.tensor(data), torch, expect_hint=isinstance(data, list) and data[0] != 1.0
                      and not isinstance(data[1], str))


def test_a_list_of_tensors_must_hold_single_numbers(torch):
    assert_same_error(lambda lib: lib.tensor([lib.ones(2), lib.ones(2)]), torch, expect_hint=False)
    assert minigrad.tensor([minigrad.tensor(1.0), minigrad.tensor(2.5)]).tolist() == [1.0, 2.5]


@pytest.mark.parametrize("data", [[1, 2.5], [True, 2], np.array([1, 2], dtype=np.int32), np.float64(2.5), 3.5,
                                  True, [[]], (1, 2), range(3), np.array([[1.0, 2.0]])])
def test_tensor_picks_pytorchs_dtype(data, torch):
    mine, theirs = minigrad.tensor(data), torch.tensor(data)
    assert repr(mine) == in_minigrad_words(repr(theirs))


def test_tensor_with_float64_keeps_python_floats_exact():
    """tensor([0.1], dtype=float64) is the double nearest 0.1, not a float32 widened."""
    assert minigrad.tensor([0.1], dtype=minigrad.float64).item() == 0.1


def test_copy_constructing_warns_as_pytorch(torch):
    for lib in (torch, minigrad):
        source = lib.tensor([1.0, 2.0], requires_grad=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            copied = lib.tensor(source)
            by_method = lib.zeros(1).new_tensor(source)
        assert not copied.requires_grad and copied.tolist() == [1.0, 2.0]
        assert by_method.tolist() == [1.0, 2.0]
        if lib is torch:
            expected = [str(w.message) for w in caught]
        else:
            assert [str(w.message) for w in caught] == [in_minigrad_words(m) for m in expected]
    assert all(w.filename == __file__ for w in caught)  # the warning points at the caller's line


def test_as_tensor_and_from_numpy_share_memory():
    array = np.array([1.0, 2.0])
    shared, also_shared, copied = minigrad.from_numpy(array), minigrad.as_tensor(array), minigrad.tensor(array)
    array[0] = 5.0
    assert shared.tolist() == also_shared.tolist() == [5.0, 2.0] and copied.tolist() == [1.0, 2.0]
    t = minigrad.ones(2)
    assert minigrad.as_tensor(t) is t
    assert minigrad.as_tensor(t, dtype=minigrad.float64).dtype is minigrad.float64


# --- filled tensors and ranges ----------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda lib: lib.zeros(size=(2, 3)), lambda lib: lib.zeros([2, 3]), lambda lib: lib.ones(lib.Size([2])),
    lambda lib: lib.full((2, 3), 7), lambda lib: lib.full((2,), True), lambda lib: lib.full((2,), 1.5),
    lambda lib: lib.full((2,), 1.5, dtype=lib.int64), lambda lib: lib.eye(2, 3, dtype=lib.int64),
    lambda lib: lib.full_like(lib.ones(2, dtype=lib.int64), 3.7), lambda lib: lib.zeros_like(lib.ones(2), dtype=lib.int64),
    lambda lib: lib.zeros(()), lambda lib: lib.ones(1).new_zeros(2, 3), lambda lib: lib.ones(1).new_full((2,), 3),
    lambda lib: lib.ones(1, dtype=lib.float64).new_tensor([1, 2]), lambda lib: lib.ones(1).new_ones(2, dtype=lib.int64),
])
def test_filled_tensors_are_pytorchs(make, torch):
    assert repr(make(minigrad)) == in_minigrad_words(repr(make(torch)))


@pytest.mark.parametrize("make", [
    lambda lib: lib.zeros(2, -3), lambda lib: lib.ones(-1), lambda lib: lib.zeros(2.5), lambda lib: lib.zeros("a"),
    lambda lib: lib.full(2, 1.0), lambda lib: lib.ones_like([1, 2]), lambda lib: lib.arange(0, 1, 0),
    lambda lib: lib.arange(0, 10, -1), lambda lib: lib.linspace(0, 1, -1), lambda lib: lib.ones(1).new_full(2, 3),
])
def test_bad_shapes_and_ranges_raise_pytorchs_errors(make, torch):
    assert_same_error(make, torch, expect_hint=False)


ARANGES = [(5,), (1, 4), (0, 1, 0.1), (-1, 1, 0.2), (0.5, 3), (1, 2.5, 0.5), (0, 10, 3), (10, 0, -3), (0, 2, 0.3),
           (-3.3, 7.1, 0.7), (1, 0, -0.25), (0, 1.0001, 0.25), (0, 100, 0.1)]


@pytest.mark.parametrize("args", ARANGES)
@pytest.mark.parametrize("dtype", [None, "float64"])
def test_arange_gives_pytorchs_length_and_values(args, dtype, torch):
    """Length ceil((end - start) / step); values start + i * step rounded once (compared exactly)."""
    def run(lib):
        return lib.arange(*args) if dtype is None else lib.arange(*args, dtype=getattr(lib, dtype))

    mine, theirs = run(minigrad), run(torch)
    assert repr(mine.dtype) == in_minigrad_words(repr(theirs.dtype))
    np.testing.assert_array_equal(mine.numpy(), theirs.numpy())


@pytest.mark.parametrize("args", [(0, 1, 5), (0, 1, 10), (-1, 1, 4), (3, -2, 11), (0, 1, 1), (0, 1, 0),
                                  (2.1, -2.76, 32), (-0.6, 2.8, 38)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_linspace_gives_pytorchs_values_exactly(args, dtype, torch):
    mine = minigrad.linspace(*args, dtype=getattr(minigrad, dtype)).numpy()
    np.testing.assert_array_equal(mine, torch.linspace(*args, dtype=getattr(torch, dtype)).numpy())


def test_logspace_is_close_to_pytorchs(torch):
    for args in [(0, 2, 3), (0, 1, 7), (-1, 1, 5)]:
        np.testing.assert_allclose(minigrad.logspace(*args).numpy(), torch.logspace(*args).numpy(), rtol=1e-6)
    np.testing.assert_array_equal(minigrad.logspace(0, 2, 3, base=2).numpy(), [1.0, 2.0, 4.0])


# --- legacy constructors and Variable ---------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda lib: lib.Tensor([[1, 2], [3, 4]]), lambda lib: lib.Tensor(), lambda lib: lib.Tensor((2, 3)),
    lambda lib: lib.Tensor(np.array([1, 2])), lambda lib: lib.FloatTensor([1, 2, 3]), lambda lib: lib.LongTensor([1.7, 2]),
    lambda lib: lib.DoubleTensor([[1]]), lambda lib: lib.IntTensor([5]), lambda lib: lib.BoolTensor([1, 0]),
])
def test_legacy_constructors_make_pytorchs_tensors(make, torch):
    assert repr(make(minigrad)) == in_minigrad_words(repr(make(torch)))


def test_legacy_constructors_from_a_shape_and_isinstance(torch):
    assert minigrad.Tensor(2, 3).shape == (2, 3) and minigrad.Tensor(2, 3).dtype is minigrad.float32
    assert minigrad.Tensor(minigrad.Size([1, 2])).shape == (1, 2)
    assert minigrad.LongTensor(2, 2).dtype is minigrad.int64
    assert isinstance(minigrad.ones(2), minigrad.Tensor) and isinstance(minigrad.ones(2), minigrad.FloatTensor)
    assert not isinstance(minigrad.ones(2).long(), minigrad.FloatTensor)
    assert isinstance(minigrad.nn.Parameter(minigrad.ones(2)), minigrad.Tensor)
    t = minigrad.tensor([1, 2])
    assert minigrad.Tensor(t) is t  # NB: PyTorch makes a new tensor on t's memory
    for make in (lambda lib: lib.Tensor([1.0], requires_grad=True), lambda lib: lib.Tensor(3.5),
                 lambda lib: lib.Tensor("a"), lambda lib: lib.Tensor(2, 3.0),
                 lambda lib: lib.FloatTensor(lib.ones(2, dtype=lib.float64))):
        assert_same_error(make, torch, expect_hint=False)


def test_variable_is_a_tensor_on_the_same_memory(torch):
    from minigrad.autograd import Variable

    x = minigrad.ones(2)
    v = Variable(x, requires_grad=True)
    assert v is not x and v.requires_grad and not x.requires_grad and v.is_leaf
    v.data[0] = 5.0
    assert x.tolist() == [5.0, 1.0]
    assert Variable().tolist() == []
    assert_same_error(lambda lib: __import__(lib.__name__ + ".autograd", fromlist=["Variable"]).Variable([1.0]),
                      torch, expect_hint=False)


# --- .grad by hand, comparisons ---------------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    lambda lib: lib.ones(2, dtype=lib.float64), lambda lib: lib.ones(2, dtype=lib.int64), lambda lib: lib.ones(3),
    lambda lib: lib.ones(1), lambda lib: [1.0, 2.0], lambda lib: np.ones(2),
])
def test_assigning_a_wrong_grad_raises_pytorchs_error(value, torch):
    def run(lib):
        leaf = lib.ones(2, requires_grad=True)
        leaf.grad = value(lib)

    assert_same_error(run, torch, expect_hint=value(minigrad) is not None and isinstance(value(minigrad), minigrad.Tensor)
                      and value(minigrad).dtype != minigrad.float32)


def test_assigning_a_right_grad_works():
    leaf = minigrad.ones(2, requires_grad=True)
    leaf.grad = minigrad.tensor([1.0, 2.0])
    assert leaf.grad.tolist() == [1.0, 2.0]
    leaf.grad = None
    assert leaf.grad is None


@pytest.mark.parametrize("call", [
    lambda lib, a, b: lib.isclose(a, b), lambda lib, a, b: lib.isclose(a, b, equal_nan=True),
    lambda lib, a, b: lib.isclose(a, b, rtol=0.1), lambda lib, a, b: a.isclose(b, atol=0.2),
    lambda lib, a, b: lib.allclose(a[:2], b[:2]), lambda lib, a, b: a[:2].allclose(b[:2], atol=0.2),
    lambda lib, a, b: lib.allclose(a, a, equal_nan=True), lambda lib, a, b: lib.equal(a[:2], a[:2].clone()),
    lambda lib, a, b: lib.equal(a[:2], lib.tensor([1, 2])), lambda lib, a, b: a.equal(b),
    lambda lib, a, b: lib.isclose(a, lib.tensor(1.0)),
])
def test_comparisons_give_pytorchs_answers(call, torch):
    def run(lib):
        a = lib.tensor([1.0, 2.0, float("nan"), float("inf")])
        b = lib.tensor([1.0 + 1e-6, 2.1, float("nan"), float("inf")])
        out = call(lib, a, b)
        return out if isinstance(out, bool) else out.tolist()

    assert run(minigrad) == run(torch)


@pytest.mark.parametrize("call", [
    lambda lib: lib.allclose(lib.ones(2), lib.ones(2, dtype=lib.float64)),
    lambda lib: lib.isclose(lib.tensor([1.0]), lib.tensor([1])),
    lambda lib: lib.allclose(lib.ones(2), [1.0, 1.0]),
    lambda lib: lib.equal(lib.ones(2), 1.0),
    lambda lib: lib.isclose(lib.ones(2), lib.ones(3)),
    lambda lib: lib.isclose(lib.ones(2), lib.ones(2), rtol=-1),
    lambda lib: lib.isclose(lib.ones(2), lib.ones(2), atol=-1),
])
def test_comparisons_refuse_what_pytorch_refuses(call, torch):
    assert_same_error(call, torch, expect_hint=False)


def test_constants_are_pythons_floats(torch):
    assert (minigrad.pi, minigrad.e, minigrad.inf) == (torch.pi, torch.e, torch.inf)
    assert np.isnan(minigrad.nan) and type(minigrad.pi) is float


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_is_pytorchs(name, torch):
    mine, theirs = minigrad.finfo(getattr(minigrad, name)), torch.finfo(getattr(torch, name))
    assert repr(mine) == repr(theirs)
    assert (mine.eps, mine.max, mine.min, mine.tiny, mine.bits) == (theirs.eps, theirs.max, theirs.min, theirs.tiny,
                                                                     theirs.bits)


@pytest.mark.parametrize("name", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_is_pytorchs(name, torch):
    mine, theirs = minigrad.iinfo(getattr(minigrad, name)), torch.iinfo(getattr(torch, name))
    assert (repr(mine), mine.max, mine.min, mine.bits) == (repr(theirs), theirs.max, theirs.min, theirs.bits)


def test_finfo_and_iinfo_refuse_the_other_kind(torch):
    assert_same_error(lambda lib: lib.finfo(lib.int32), torch, expect_hint=False)
    assert_same_error(lambda lib: lib.iinfo(lib.float32), torch, expect_hint=False)
    assert_same_error(lambda lib: lib.iinfo(lib.bool), torch, expect_hint=False)


def test_legacy_new_method_uses_the_tensors_dtype(torch):
    for make in (lambda lib: lib.ones(2).new([1, 2]), lambda lib: lib.ones(1).long().new([1.5]),
                 lambda lib: lib.ones(1, dtype=lib.float64).new(2)):
        mine, theirs = make(minigrad), make(torch)
        assert (repr(mine.dtype), mine.shape) == (in_minigrad_words(repr(theirs.dtype)), tuple(theirs.shape))


def test_big_endian_numpy_data_has_the_usual_dtype():
    """An array read from a big-endian file is float32 all the same (one dtype object per kind)."""
    t = minigrad.from_numpy(np.array([1.0, 2.0], dtype=">f4"))
    assert t.dtype is minigrad.float32 and (t * 2).tolist() == [2.0, 4.0]

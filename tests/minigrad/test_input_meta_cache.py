"""A node's record of its inputs' shapes and dtypes is made once per tensor (``Tensor._meta``,
fast_path 13): whatever swaps a tensor's array for another must not leave the old record, or
the gradients that tensor gets later would be fitted to a shape or a dtype it no longer has.

Each case uses a tensor in an op (so its record is made), swaps its array, uses it again and
runs backward: gradients' shapes, dtypes and values must be PyTorch's.
"""

import numpy as np

import minigrad


def _grads(lib, case):
    return [(tuple(g.shape), str(g.dtype).split(".")[-1], np.round(g.numpy().astype(np.float64), 5).tolist())
            for g in case(lib)]


def _data_swapped_for_another_shape(lib):
    w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (w * 2).sum().backward()
    w.grad = None
    w.data = lib.ones(2, 3)
    (w * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
    return [w.grad]


def _data_swapped_for_another_dtype(lib):
    w = lib.tensor([1.0, 2.0], requires_grad=True)
    (w * 2).sum().backward()
    w.grad = None
    w.data = lib.tensor([1.0, 2.0], dtype=lib.float64)
    (w * w).sum().backward()
    return [w.grad]


def _a_module_cast_to_float64(lib):
    lib.manual_seed(0)
    layer = lib.nn.Linear(3, 2)
    x = lib.ones(4, 3)
    layer(x).sum().backward()
    layer.zero_grad()
    layer.double()
    layer(x.double()).sum().backward()
    return [layer.weight.grad, layer.bias.grad]


def _broadcast_input_swapped(lib):
    # The record decides how a broadcast gradient is summed back: a (3,) bias, then a (2, 3) one.
    b = lib.zeros(3, requires_grad=True)
    (lib.ones(2, 3) + b).sum().backward()
    first = b.grad.clone()
    b.grad = None
    b.data = lib.zeros(2, 3)
    (lib.ones(2, 3) * 3 + b).sum().backward()
    return [first, b.grad]


def test_a_tensor_whose_data_is_swapped_gets_gradients_of_its_new_shape(torch):
    assert _grads(minigrad, _data_swapped_for_another_shape) == _grads(torch, _data_swapped_for_another_shape)


def test_a_tensor_whose_data_is_swapped_gets_gradients_of_its_new_dtype(torch):
    assert _grads(minigrad, _data_swapped_for_another_dtype) == _grads(torch, _data_swapped_for_another_dtype)


def test_a_module_cast_to_another_dtype_gets_gradients_of_it(torch):
    assert _grads(minigrad, _a_module_cast_to_float64) == _grads(torch, _a_module_cast_to_float64)


def test_a_broadcast_input_swapped_for_its_full_shape(torch):
    assert _grads(minigrad, _broadcast_input_swapped) == _grads(torch, _broadcast_input_swapped)


# --- the records are shared (fast_path 16): a long graph holds one per shape and dtype ----------

def _recorded_mul(x, y):
    return (x * y).grad_fn


def test_tensors_of_one_shape_and_dtype_share_one_record_and_others_do_not():
    a, b = minigrad.ones(2, 3, requires_grad=True), minigrad.zeros(2, 3, requires_grad=True)
    c = minigrad.ones(2, 3, dtype=minigrad.float64, requires_grad=True)
    d = minigrad.ones(3, 2, requires_grad=True)
    for t in (a, b, c, d):
        (t * 2).sum().backward()
    assert a._meta is b._meta and a._meta == ((2, 3), np.dtype(np.float32))
    assert c._meta == ((2, 3), np.dtype(np.float64)) and d._meta == ((3, 2), np.dtype(np.float32))


def test_the_shared_records_stay_few_in_a_program_of_ever_new_shapes():
    from minigrad import fast_path

    for n in range(1, 6000):
        (minigrad.ones(n, requires_grad=True) * 2).sum().backward()
        assert len(fast_path._metas) <= 4096


def test_nodes_share_their_needs_input_grad_and_it_still_says_which_input_needs_one():
    x, w = minigrad.ones(2, requires_grad=True), minigrad.ones(2)
    first, second, third = _recorded_mul(x, w), _recorded_mul(x, w), _recorded_mul(w, x)
    assert first.needs_input_grad is second.needs_input_grad
    assert first.needs_input_grad == (True, False) and third.needs_input_grad == (False, True)
    assert _recorded_mul(x, x).needs_input_grad == (True, True)
    assert (x * 2).grad_fn.needs_input_grad == (True, False)  # (2 is wrapped: the node has two inputs)
    assert x.exp().grad_fn.needs_input_grad == (True,)

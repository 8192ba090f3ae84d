"""The three switches that make recording do more than link a node (anomaly mode, saved-tensor
hooks, record_forward_inputs) are read through one flag, ``_state.node_extras``: on and off,
nested, and set by a plain call, each must take effect at the next op and end with its block."""

import threading
import warnings

import minigrad
from minigrad.autograd.graph import record_forward_inputs, saved_tensors_hooks
from minigrad.grad_mode import _state


def _recorded():
    """What recording one op kept besides its node: (a forward trace, its forward inputs)."""
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    return y.grad_fn._forward_trace is not None, y.grad_fn._forward_inputs is not None


def _all_off():
    """Nothing is on, and the one flag says so (else every op would read the three switches)."""
    return _recorded() == (False, False) and not _state.node_extras


def _packed_count(block):
    packs = []
    with saved_tensors_hooks(lambda t: packs.append(1) or t, lambda t: t):
        block()
    return len(packs)


def test_each_switch_takes_effect_and_ends_with_its_block():
    assert _all_off()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with minigrad.autograd.detect_anomaly():
            assert _recorded() == (True, False)
            with record_forward_inputs():
                assert _recorded() == (True, True)
            assert _recorded() == (True, False)
    assert _all_off()
    assert _packed_count(lambda: _recorded()) == 2  # x * x saves both inputs
    assert _all_off()
    with record_forward_inputs():
        assert _packed_count(lambda: _recorded()) == 2
        assert _recorded() == (False, True)
    assert _all_off()


def test_anomaly_mode_set_by_a_plain_call_takes_effect_until_turned_off():
    minigrad.autograd.set_detect_anomaly(True)
    try:
        assert _recorded() == (True, False)
    finally:
        minigrad.autograd.set_detect_anomaly(False)
    assert _all_off()


def test_a_switch_on_in_one_thread_is_off_in_another():
    seen = []
    with record_forward_inputs():
        thread = threading.Thread(target=lambda: seen.append(_recorded()))
        thread.start()
        thread.join()
        assert _recorded() == (False, True)
    assert seen == [(False, False)]


def test_forward_inputs_name_the_parameters_of_ops_that_pass_them_in_order():
    # apply_unary and apply_as_view take forward's parameters in order, without names; what
    # record_forward_inputs keeps names them as forward does, and replays to the same result.
    import numpy as np

    x = minigrad.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    cases = {
        "softmax": (lambda: x.softmax(1), {"dim": 1}),
        "reshape": (lambda: x.reshape(3, 2), {"shape": (3, 2)}),
        "transpose": (lambda: x.transpose(0, 1), {"dim0": 0, "dim1": 1}),
        "expand": (lambda: x[:1].expand(4, 3), {"shape": (4, 3)}),
        "sum over a dim": (lambda: x.sum(0, keepdim=True), {"dim": (0,), "keepdim": True}),
        "mean over a dim": (lambda: x.mean(1), {"dim": (1,), "keepdim": False}),
        "pow": (lambda: x ** 3, {"exponent": 3}),
    }
    for name, (op, expected) in cases.items():
        with record_forward_inputs():
            y = op()
        arrays, params = y.grad_fn._forward_inputs
        assert params == expected, name
        # (The arrays kept are float64, for finite differences: the replay agrees to float32's rounding.)
        np.testing.assert_allclose(y.grad_fn.forward(*arrays, **params), y.detach().numpy(), rtol=1e-6, err_msg=name)

"""Grad mode (no_grad, enable_grad, set_grad_enabled, inference_mode) and leaving or joining the graph."""

import re
import warnings

import numpy as np
import pytest

import minigrad

from torch_parity import HINT, assert_same_error

def in_minigrad_words(text):
    """PyTorch's message as minigrad must word it: torch. read as minigrad, no C++ location."""
    text = re.sub(r" \(Triggered internally at [^)]*\)$", "", text)
    return text.replace("torch.", "minigrad.")


def outcome(fn):
    """What calling ``fn()`` did: ('ok', result) or (exception type name, first paragraph of the message)."""
    try:
        return "ok", fn()
    except Exception as e:  # noqa: BLE001 - the outcome itself is compared
        return type(e).__name__, in_minigrad_words(str(e).split(HINT)[0])


@pytest.fixture(autouse=True)
def grad_mode_is_restored():
    """Every test starts and must end with grad mode on."""
    assert minigrad.is_grad_enabled()
    yield
    assert minigrad.is_grad_enabled()


def leaf(values):
    return minigrad.tensor(values, requires_grad=True)


# --- no_grad ------------------------------------------------------------------------------


def test_is_grad_enabled_is_true_by_default():
    """Recording is on unless switched off."""
    assert minigrad.is_grad_enabled() is True


def test_no_grad_context_records_nothing():
    """Inside no_grad, x * 2 has no grad_fn, does not require grad and is a leaf."""
    x = leaf([1.0, 2.0])
    with minigrad.no_grad():
        assert minigrad.is_grad_enabled() is False
        y = x * 2.0
    assert y.grad_fn is None and not y.requires_grad and y.is_leaf
    assert minigrad.is_grad_enabled() is True


def test_no_grad_keeps_requires_grad_of_new_leaves():
    """A tensor created with requires_grad=True inside no_grad still requires grad."""
    with minigrad.no_grad():
        x = leaf([1.0])
    assert x.requires_grad


def test_no_grad_restores_mode_after_an_exception():
    """Leaving no_grad by an exception switches recording back on."""
    with pytest.raises(ZeroDivisionError):
        with minigrad.no_grad():
            1 / 0
    assert minigrad.is_grad_enabled()


def test_no_grad_as_decorator_with_parentheses():
    """@no_grad() makes the function run without recording; outside it recording is back."""

    @minigrad.no_grad()
    def double(t):
        assert not minigrad.is_grad_enabled()
        return t * 2.0

    y = double(leaf([1.0]))
    assert not y.requires_grad
    assert double.__name__ == "double"


def test_no_grad_as_decorator_without_parentheses_matches_torch(torch):
    """@no_grad (no call) is accepted by PyTorch 2; minigrad does the same."""

    def run(lib):
        def double(t):
            return lib.is_grad_enabled(), (t * 2.0).requires_grad

        decorated = outcome(lambda: lib.no_grad(double))
        if decorated[0] != "ok":
            return decorated
        return decorated[1](lib.tensor([1.0], requires_grad=True)), decorated[1].__name__

    assert run(minigrad) == run(torch)


def test_nested_no_grad_restores_outer_state():
    """Leaving an inner no_grad inside an outer no_grad keeps recording off."""
    with minigrad.no_grad():
        with minigrad.no_grad():
            pass
        assert not minigrad.is_grad_enabled()


# --- enable_grad --------------------------------------------------------------------------


def test_enable_grad_inside_no_grad_records():
    """enable_grad switches recording back on inside no_grad, and no_grad is back after it."""
    x = leaf(1.0)
    with minigrad.no_grad():
        with minigrad.enable_grad():
            assert minigrad.is_grad_enabled()
            y = x * 2.0
        assert not minigrad.is_grad_enabled()
    assert y.grad_fn is not None and y.requires_grad


def test_enable_grad_as_decorator():
    """@enable_grad() records inside a function called under no_grad."""

    @minigrad.enable_grad()
    def double(t):
        return t * 2.0

    with minigrad.no_grad():
        y = double(leaf(1.0))
    assert y.requires_grad


def test_enable_grad_decorator_without_parentheses_matches_torch(torch):
    """@enable_grad (no call) behaves as in PyTorch."""

    def run(lib):
        def probe():
            return lib.is_grad_enabled()

        decorated = outcome(lambda: lib.enable_grad(probe))
        if decorated[0] != "ok":
            return decorated
        with lib.no_grad():
            return decorated[1]()

    assert run(minigrad) == run(torch)


# --- set_grad_enabled ------------------------------------------------------------------------


def test_set_grad_enabled_as_a_function_call():
    """set_grad_enabled(False) switches off right away; set_grad_enabled(True) switches back."""
    try:
        minigrad.set_grad_enabled(False)
        assert not minigrad.is_grad_enabled()
        assert not (leaf(1.0) * 2.0).requires_grad
    finally:
        minigrad.set_grad_enabled(True)
    assert minigrad.is_grad_enabled()


@pytest.mark.parametrize("mode", [False, True])
def test_set_grad_enabled_as_context_manager(mode):
    """with set_grad_enabled(mode): recording is mode inside and restored after."""
    with minigrad.set_grad_enabled(mode):
        assert minigrad.is_grad_enabled() is mode
        y = leaf(1.0) * 2.0
    assert y.requires_grad is mode


def test_set_grad_enabled_true_inside_no_grad():
    """set_grad_enabled(True) inside no_grad records, and no_grad is back after the block."""
    with minigrad.no_grad():
        with minigrad.set_grad_enabled(True):
            y = leaf(1.0) * 2.0
        assert not minigrad.is_grad_enabled()
    assert y.requires_grad


def test_set_grad_enabled_as_decorator():
    """@set_grad_enabled(False) turns recording off only while the function runs."""

    @minigrad.set_grad_enabled(False)
    def probe():
        return minigrad.is_grad_enabled()

    assert minigrad.is_grad_enabled()  # decorating did not switch anything
    assert probe() is False
    assert minigrad.is_grad_enabled()


# --- inference_mode --------------------------------------------------------------------------


def test_inference_mode_records_nothing():
    """inside inference_mode, grad is disabled and results have no grad_fn."""
    x = leaf([1.0])
    with minigrad.inference_mode():
        assert not minigrad.is_grad_enabled()
        y = x * 2.0
    assert not y.requires_grad and y.grad_fn is None


def test_inference_mode_as_decorator():
    """@inference_mode() disables recording inside the function."""

    @minigrad.inference_mode()
    def probe():
        return minigrad.is_grad_enabled()

    assert probe() is False


@pytest.mark.parametrize("outer", ["enabled", "no_grad"])
def test_inference_mode_false_matches_torch(outer, torch):
    """inference_mode(False) leaves grad mode as PyTorch does, inside and outside no_grad."""

    def run(lib):
        import contextlib

        context = lib.no_grad() if outer == "no_grad" else contextlib.nullcontext()
        with context:
            with lib.inference_mode(False):
                inside = lib.is_grad_enabled()
            after = lib.is_grad_enabled()
        return inside, after

    assert run(minigrad) == run(torch)


def test_inference_mode_decorator_without_parentheses_matches_torch(torch):
    """@inference_mode (no call) behaves as in PyTorch."""

    def run(lib):
        def probe():
            return lib.is_grad_enabled()

        decorated = outcome(lambda: lib.inference_mode(probe))
        return decorated if decorated[0] != "ok" else outcome(decorated[1])

    assert run(minigrad) == run(torch)


# --- detach, detach_ ---------------------------------------------------------------------------


def test_detach_gives_a_leaf_outside_the_graph_sharing_data():
    """x.detach() has no grad_fn, does not require grad, and writing into it changes x."""
    x = leaf([1.0, 2.0])
    h = x * 2.0
    d = h.detach()
    assert d.grad_fn is None and not d.requires_grad and d.is_leaf
    d[0] = 7.0
    assert h.tolist() == [7.0, 4.0]


def test_detach_cuts_the_gradient():
    """y = x * detach(x): x.grad = detach(x) only (the detached factor is a constant): [1, 2]."""
    x = leaf([1.0, 2.0])
    (x * x.detach()).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 2.0])


def test_detach_in_place_makes_a_non_leaf_a_leaf(torch):
    """h.detach_() drops grad_fn and requires_grad and returns h itself, as in PyTorch."""

    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * 2.0
        same = h.detach_() is h
        return same, h.grad_fn is None, h.requires_grad, h.is_leaf, h.tolist()

    assert run(minigrad) == run(torch)


def test_detach_in_place_of_a_view_is_an_error(torch):
    """detach_() on a view of a tensor that requires grad raises PyTorch's error."""

    def run(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        (x * 2.0)[0:2].detach_()

    assert_same_error(run, torch, expect_hint=False)


# --- requires_grad_, requires_grad ------------------------------------------------------------


def test_requires_grad_method_returns_the_tensor_and_sets_the_flag():
    """t.requires_grad_() sets the flag in place and returns t; requires_grad_(False) clears it."""
    t = minigrad.tensor([1.0])
    assert t.requires_grad_() is t and t.requires_grad
    assert t.requires_grad_(False) is t and not t.requires_grad


def test_requires_grad_attribute_on_a_leaf():
    """Setting .requires_grad on a leaf works and makes later results have a grad_fn."""
    t = minigrad.tensor([1.0])
    t.requires_grad = True
    assert (t * 2.0).grad_fn is not None


@pytest.mark.parametrize("how", ["method_false", "attribute_false", "method_true", "attribute_true"])
def test_changing_requires_grad_of_a_non_leaf_matches_torch(how, torch):
    """On a non-leaf, requires_grad_(flag) / .requires_grad = flag errors or not exactly as in PyTorch."""

    def run(lib):
        h = lib.tensor([1.0], requires_grad=True) * 2.0
        flag = how.endswith("true")

        def change():
            if how.startswith("method"):
                h.requires_grad_(flag)
            else:
                h.requires_grad = flag
            return h.requires_grad

        return outcome(change)

    assert run(minigrad) == run(torch)


# --- retain_grad -----------------------------------------------------------------------------


def test_retain_grad_on_a_leaf_is_a_no_op(torch):
    """retain_grad() on a leaf changes nothing; retains_grad stays as in PyTorch (False)."""

    def run(lib):
        x = lib.tensor([1.0], requires_grad=True)
        x.retain_grad()
        (x * 3.0).sum().backward()
        return x.retains_grad, x.grad.tolist()

    assert run(minigrad) == run(torch)


def test_retain_grad_without_requires_grad_is_an_error(torch):
    """retain_grad() on a tensor that does not require grad raises PyTorch's error."""

    def run(lib):
        lib.tensor([1.0]).retain_grad()

    assert_same_error(run, torch, expect_hint=False)


def test_retain_grad_twice_does_not_double_the_gradient():
    """Calling retain_grad() twice stores h.grad once: dy/dh = 3."""
    h = leaf([1.0]) * 2.0
    h.retain_grad()
    h.retain_grad()
    (h * 3.0).sum().backward()
    assert h.grad.tolist() == [3.0]


# --- reading .grad of a non-leaf ------------------------------------------------------------


def test_reading_grad_of_a_non_leaf_warns_with_torch_wording(torch):
    """h.grad on a non-leaf that does not retain grad returns None with PyTorch's UserWarning."""

    def run(lib):
        h = lib.tensor([1.0], requires_grad=True) * 2.0
        warn_always = lib.is_warn_always_enabled() if lib is torch else None
        if lib is torch:
            torch.set_warn_always(True)  # PyTorch warns once per process otherwise
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                value = h.grad
        finally:
            if lib is torch:
                torch.set_warn_always(warn_always)
        return value, [(w.category, in_minigrad_words(str(w.message))) for w in caught]

    expected = run(torch)
    assert expected[0] is None and len(expected[1]) == 1 and expected[1][0][0] is UserWarning
    assert run(minigrad) == expected


def test_reading_grad_of_a_leaf_or_retaining_non_leaf_does_not_warn():
    """No warning for a leaf's .grad, nor for a non-leaf that called retain_grad()."""
    x = leaf([1.0])
    h = x * 2.0
    h.retain_grad()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert x.grad is None
        assert h.grad is None


# --- requires_grad on integer tensors ---------------------------------------------------------


@pytest.mark.parametrize("how", ["factory", "zeros_factory", "attribute", "method", "bool_factory"])
def test_integer_tensors_cannot_require_grad(how, torch):
    """Integer (and bool) tensors refuse requires_grad with PyTorch's wording for each way of asking."""

    def run(lib):
        if how == "factory":
            lib.tensor([1, 2], requires_grad=True)
        elif how == "zeros_factory":
            lib.zeros(2, dtype=lib.int64, requires_grad=True)
        elif how == "bool_factory":
            lib.tensor([True], requires_grad=True)
        elif how == "attribute":
            lib.tensor([1, 2]).requires_grad = True
        else:
            lib.tensor([1, 2]).requires_grad_()

    assert_same_error(run, torch, expect_hint=True)


def test_integer_tensor_may_set_requires_grad_false():
    """Setting requires_grad = False on an integer tensor is allowed (nothing changes)."""
    t = minigrad.tensor([1, 2])
    t.requires_grad = False
    t.requires_grad_(False)
    assert not t.requires_grad


# --- grad mode per thread (read through grad_mode.threads_without_grad) ---------------------
def _records(x):
    """Whether each way an op can go records a node: one input, two, a view, the general apply."""
    return [y.grad_fn is not None for y in (x * 2, x * x, x.reshape(-1), x.softmax(0), minigrad.cat([x, x]))]


def test_a_thread_in_no_grad_does_not_stop_another_from_recording():
    import threading

    x = minigrad.ones(3, requires_grad=True)
    inside, go_on, seen = threading.Event(), threading.Event(), {}

    def other():
        with minigrad.no_grad():
            inside.set()
            seen["other"] = _records(x)
            go_on.wait(5)

    thread = threading.Thread(target=other)
    thread.start()
    inside.wait(5)
    seen["main"] = _records(x)
    go_on.set()
    thread.join()
    assert seen == {"other": [False] * 5, "main": [True] * 5}


def test_a_thread_that_ended_in_no_grad_leaves_the_others_as_they_were():
    import threading

    x = minigrad.ones(3, requires_grad=True)
    thread = threading.Thread(target=lambda: minigrad.set_grad_enabled(False))
    thread.start()
    thread.join()
    assert _records(x) == [True] * 5
    with minigrad.no_grad():
        assert _records(x) == [False] * 5
    assert _records(x) == [True] * 5


def test_every_write_of_grad_mode_goes_through_set_grad_mode():
    # The ops read grad mode only when some thread has it off (grad_mode.threads_without_grad):
    # a write that went around set_grad_mode would leave that set wrong, and ops recording.
    import pathlib
    import re

    package = pathlib.Path(minigrad.__file__).parent
    writes = [f"{path.relative_to(package)}:{number}"
              for path in package.rglob("*.py")
              for number, line in enumerate(path.read_text().splitlines(), 1)
              if re.search(r"_state\.grad_enabled\s*=[^=]|_state\.grad_enabled\s*,[^=]*=[^=]", line)]
    assert len(writes) == 1 and writes[0].startswith("grad_mode.py:"), writes  # (set_grad_mode's own)

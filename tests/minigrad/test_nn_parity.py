"""nn, optim and data loading against PyTorch: the numbers, graphs and random draws tutorials rely on.

Every expectation comes from PyTorch itself (the ``torch`` fixture) or, for gradients, from finite
differences (``gradcheck`` / ``gradgradcheck`` in float64).
"""

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck
from minigrad.nn import functional as F
from minigrad.utils.data import DataLoader, TensorDataset, random_split
from torch_parity import graph_names

RNG = np.random.default_rng(7)


def both(lib_fn, torch, *arrays):
    """``lib_fn(lib, *tensors)`` under each library, on float64 copies of ``arrays`` requiring grad."""
    out = []
    for lib in (minigrad, torch):
        tensors = [lib.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
        out.append((lib_fn(lib, *tensors), tensors))
    return out


def assert_same_values_and_grads(lib_fn, torch, *arrays):
    (m_out, m_in), (t_out, t_in) = both(lib_fn, torch, *arrays)
    np.testing.assert_allclose(m_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-6, atol=1e-9)
    assert graph_names(m_out.grad_fn)[0] == graph_names(t_out.grad_fn)[0]
    m_out.sum().backward()
    t_out.sum().backward()
    for m, t in zip(m_in, t_in):
        if t.requires_grad:
            np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-6, atol=1e-9)


# --- initial values come from PyTorch's generator -------------------------------------------------


@pytest.mark.parametrize("shape", [(3, 2), (1, 7), (16, 5)])
def test_seeded_linear_starts_from_pytorchs_numbers(torch, shape):
    minigrad.manual_seed(0)
    torch.manual_seed(0)
    m, t = nn.Linear(*shape), torch.nn.Linear(*shape)
    np.testing.assert_array_equal(m.weight.detach().numpy(), t.weight.detach().numpy())
    np.testing.assert_array_equal(m.bias.detach().numpy(), t.bias.detach().numpy())


def test_seeded_embedding_layernorm_batchnorm_start_as_in_pytorch(torch):
    minigrad.manual_seed(3)
    torch.manual_seed(3)
    m = nn.Sequential(nn.Embedding(5, 4, padding_idx=1), nn.LayerNorm(4), nn.Linear(4, 2))
    t = torch.nn.Sequential(torch.nn.Embedding(5, 4, padding_idx=1), torch.nn.LayerNorm(4),
                            torch.nn.Linear(4, 2))
    for (m_name, m_p), (t_name, t_p) in zip(m.state_dict().items(), t.state_dict().items()):
        assert m_name == t_name
        np.testing.assert_array_equal(m_p.numpy(), t_p.numpy())


@pytest.mark.parametrize("name, kwargs", [
    ("uniform_", {"a": -0.5, "b": 2.0}), ("normal_", {"mean": 1.0, "std": 0.1}),
    ("xavier_uniform_", {"gain": 2.0}), ("xavier_normal_", {}),
    ("kaiming_uniform_", {"a": 0.1, "mode": "fan_out"}), ("kaiming_normal_", {"nonlinearity": "relu"}),
])
def test_init_functions_draw_pytorchs_numbers_from_a_generator(torch, name, kwargs):
    m = getattr(nn.init, name)(minigrad.empty(4, 3, 2), generator=minigrad.Generator().manual_seed(5), **kwargs)
    t = getattr(torch.nn.init, name)(torch.empty(4, 3, 2), generator=torch.Generator().manual_seed(5), **kwargs)
    np.testing.assert_array_equal(m.numpy(), t.numpy())


def test_calculate_gain_and_fans_as_pytorch(torch):
    for args in [("linear",), ("tanh",), ("relu",), ("leaky_relu",), ("leaky_relu", 0.3), ("selu",)]:
        assert nn.init.calculate_gain(*args) == torch.nn.init.calculate_gain(*args)
    assert nn.init._calculate_fan_in_and_fan_out(minigrad.empty(5, 3, 2)) == \
        torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(5, 3, 2))


def test_dropout_mask_is_pytorchs_for_the_same_seed(torch):
    minigrad.manual_seed(11)
    torch.manual_seed(11)
    m = nn.Dropout(0.3)(minigrad.ones(6, 7))
    t = torch.nn.Dropout(0.3)(torch.ones(6, 7))
    np.testing.assert_array_equal(m.numpy(), t.numpy())


# --- losses and activations: values, node names, gradients -----------------------------------------


LOSS_CASES = {
    "bce": lambda lib, p, y: lib.nn.functional.binary_cross_entropy(p.sigmoid(), y, reduction="sum"),
    "bce-weight": lambda lib, p, y: lib.nn.functional.binary_cross_entropy(p.sigmoid(), y, weight=y.detach() + 1),
    "bce-logits": lambda lib, p, y: lib.nn.functional.binary_cross_entropy_with_logits(p, y),
    "bce-logits-pos": lambda lib, p, y: lib.nn.functional.binary_cross_entropy_with_logits(
        p, y, pos_weight=lib.tensor([0.5, 2.0, 3.0], dtype=lib.float64), reduction="none"),
    "smooth-l1": lambda lib, p, y: lib.nn.functional.smooth_l1_loss(p, y * 3, beta=0.7),
    "huber": lambda lib, p, y: lib.nn.functional.huber_loss(p, y * 3, delta=0.6, reduction="none"),
    "l1": lambda lib, p, y: lib.nn.functional.l1_loss(p, y),
    "mse-sum": lambda lib, p, y: lib.nn.functional.mse_loss(p, y, reduction="sum"),
}


@pytest.mark.parametrize("case", list(LOSS_CASES), ids=list(LOSS_CASES))
def test_losses_match_pytorch_in_value_node_and_gradient(torch, case):
    p = RNG.standard_normal((4, 3))
    y = RNG.uniform(0, 1, (4, 3))
    assert_same_values_and_grads(LOSS_CASES[case], torch, p, y)


@pytest.mark.parametrize("kwargs", [
    {}, {"weight": [1.0, 0.0, 2.0, 0.5]}, {"ignore_index": 2, "reduction": "sum"},
    {"label_smoothing": 0.15}, {"label_smoothing": 0.1, "weight": [1.0, 2.0, 3.0, 4.0], "ignore_index": 0},
])
def test_cross_entropy_options_match_pytorch(torch, kwargs):
    logits = RNG.standard_normal((5, 4))
    target = np.array([0, 2, 3, 2, 1])

    def loss(lib, x, t):
        args = {k: (lib.tensor(v, dtype=lib.float64) if k == "weight" else v) for k, v in kwargs.items()}
        return lib.nn.functional.cross_entropy(x, t, **args)

    (m_out, m_in), (t_out, t_in) = both(loss, torch, logits, target)
    np.testing.assert_allclose(m_out.item(), t_out.item(), rtol=1e-10)
    m_out.backward()
    t_out.backward()
    np.testing.assert_allclose(m_in[0].grad.numpy(), t_in[0].grad.numpy(), rtol=1e-9, atol=1e-12)


def test_nll_loss_over_sequences_is_recorded_as_nllloss2d(torch):
    x = RNG.standard_normal((2, 3, 4))
    target = RNG.integers(0, 3, (2, 4))
    assert_same_values_and_grads(lambda lib, a, t: lib.nn.functional.cross_entropy(a, t), torch, x, target)


@pytest.mark.parametrize("make", [
    lambda n: n.LeakyReLU(0.2), lambda n: n.ELU(0.7), lambda n: n.GELU(), lambda n: n.GELU("tanh"),
    lambda n: n.Softplus(2.0, 1.5), lambda n: n.SiLU(), lambda n: n.LogSoftmax(1), lambda n: n.Softmax(0),
], ids=["leaky_relu", "elu", "gelu", "gelu_tanh", "softplus", "silu", "log_softmax", "softmax"])
def test_activations_match_pytorch(torch, make):
    x = RNG.standard_normal((3, 5)) * 2
    assert_same_values_and_grads(lambda lib, a: make(lib.nn)(a), torch, x)


@pytest.mark.parametrize("fn", [
    lambda x, y: F.binary_cross_entropy(x.sigmoid(), y.sigmoid()),
    lambda x, y: F.binary_cross_entropy_with_logits(x, y.sigmoid(), pos_weight=minigrad.tensor(
        [1.5, 0.5, 2.0], dtype=minigrad.float64)),
    lambda x, y: F.smooth_l1_loss(x, y, beta=0.5), lambda x, y: F.huber_loss(x, y, delta=0.5),
    lambda x, y: F.leaky_relu(x) * y, lambda x, y: F.elu(x) * y, lambda x, y: F.gelu(x) * y,
    lambda x, y: F.gelu(x, approximate="tanh") * y, lambda x, y: F.softplus(x) * y, lambda x, y: F.silu(x) * y,
    lambda x, y: F.layer_norm(x, (3,), y[0], y[1]), lambda x, y: F.batch_norm(x, None, None, y[0], y[1], True),
    lambda x, y: F.cross_entropy(x, minigrad.tensor([2, 0, 1, 1]), label_smoothing=0.2) * y.sum(),
], ids=["bce", "bce_logits", "smooth_l1", "huber", "leaky_relu", "elu", "gelu", "gelu_tanh", "softplus", "silu",
        "layer_norm", "batch_norm", "cross_entropy"])
def test_new_ops_pass_gradcheck_to_second_order(fn):
    x = minigrad.tensor(RNG.standard_normal((4, 3)) + 0.1, requires_grad=True)
    y = minigrad.tensor(RNG.standard_normal((4, 3)), requires_grad=True)
    assert gradcheck(fn, (x, y))
    assert gradgradcheck(fn, (x, y))


def test_embedding_gradient_adds_repeated_rows_and_skips_padding(torch):
    weight = RNG.standard_normal((5, 3))
    idx = np.array([[1, 1, 4], [0, 1, 2]])
    assert_same_values_and_grads(lambda lib, w, i: lib.nn.functional.embedding(i, w, padding_idx=1), torch,
                                 weight, idx)
    w = minigrad.tensor(weight, requires_grad=True)
    assert gradgradcheck(lambda w: F.embedding(minigrad.tensor(idx), w) ** 2, (w,))


def test_batchnorm_running_statistics_follow_pytorch_over_steps(torch):
    for momentum in (0.1, None):
        m, t = nn.BatchNorm1d(3, momentum=momentum).double(), torch.nn.BatchNorm1d(3, momentum=momentum).double()
        for _ in range(3):
            x = RNG.standard_normal((5, 3, 2))
            m(minigrad.tensor(x))
            t(torch.tensor(x))
        for m_v, t_v in zip(m.state_dict().values(), t.state_dict().values()):
            np.testing.assert_allclose(m_v.numpy(), t_v.numpy(), rtol=1e-12)
        x = RNG.standard_normal((4, 3))
        m.eval(), t.eval()
        assert_same_values_and_grads(lambda lib, a: (m if lib is minigrad else t)(a), torch, x)


def test_module_list_repr_groups_repeats_as_pytorch(torch):
    def make(n):
        return n.ModuleList([n.ReLU(), n.ReLU(), n.Linear(1, 2), n.Linear(1, 2), n.Tanh()])

    assert repr(make(nn)) == repr(make(torch.nn))
    assert repr(nn.ModuleList()) == repr(torch.nn.ModuleList())


# --- optimizers: many steps, same numbers ------------------------------------------------------


@pytest.mark.parametrize("make", [
    lambda o, p: o.SGD(p, lr=0.1, momentum=0.9, dampening=0.2, weight_decay=0.05),
    lambda o, p: o.SGD(p, lr=0.1, momentum=0.5, nesterov=True, maximize=True),
    lambda o, p: o.Adam(p, lr=0.05, weight_decay=0.1, amsgrad=True),
    lambda o, p: o.AdamW(p, lr=0.05, betas=(0.8, 0.9)),
    lambda o, p: o.RMSprop(p, lr=0.01, momentum=0.3, centered=True, weight_decay=0.1),
    lambda o, p: o.RMSprop(p, lr=0.01),
    lambda o, p: o.Adagrad(p, lr=0.1, lr_decay=0.05, weight_decay=0.02, initial_accumulator_value=0.3),
], ids=["sgd", "sgd_nesterov", "adam_amsgrad", "adamw", "rmsprop_centered", "rmsprop", "adagrad"])
def test_optimizers_follow_pytorch_for_ten_steps(torch, make):
    start = RNG.standard_normal((3, 4))
    grads = RNG.standard_normal((10, 3, 4))
    m_p, t_p = nn.Parameter(minigrad.tensor(start)), torch.nn.Parameter(torch.tensor(start))
    m_opt, t_opt = make(minigrad.optim, [m_p]), make(torch.optim, [t_p])
    for g in grads:
        m_p.grad, t_p.grad = minigrad.tensor(g), torch.tensor(g)
        m_opt.step()
        t_opt.step()
    np.testing.assert_allclose(m_p.detach().numpy(), t_p.detach().numpy(), rtol=1e-12, atol=1e-14)
    assert sorted(m_opt.state_dict()["state"][0]) == sorted(t_opt.state_dict()["state"][0])
    assert sorted(m_opt.defaults) == sorted(t_opt.defaults)


def test_optimizer_state_dict_round_trip_continues_identically(torch):
    w = nn.Parameter(minigrad.tensor([1.0, -2.0]))
    opt = minigrad.optim.Adam([w], lr=0.1)
    w.grad = minigrad.tensor([0.5, 0.5])
    opt.step()
    w2 = nn.Parameter(w.detach().clone())
    opt2 = minigrad.optim.Adam([w2], lr=1.0)
    opt2.load_state_dict(opt.state_dict())
    assert opt2.state[w2]["exp_avg"] is not opt.state[w]["exp_avg"]  # copied, not shared
    w2.grad = w.grad = minigrad.tensor([0.1, -0.3])
    opt.step()
    opt2.step()
    np.testing.assert_array_equal(w.detach().numpy(), w2.detach().numpy())


def test_schedulers_give_pytorchs_learning_rates(torch):
    def run(lib, make):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.zeros(1))], lr=0.5)
        sched = make(lib.optim.lr_scheduler, opt)
        lrs = []
        for _ in range(7):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
        return lrs

    for make in (lambda s, o: s.StepLR(o, 3, gamma=0.2), lambda s, o: s.ExponentialLR(o, 0.7),
                 lambda s, o: s.LambdaLR(o, lambda e: 0.9 ** e + 0.1)):
        assert run(minigrad, make) == run(torch, make)


# --- data loading -----------------------------------------------------------------------------------


def test_shuffled_batches_and_the_random_numbers_after_them_are_pytorchs(torch):
    def run(lib):
        lib.manual_seed(4)
        ds = lib.utils.data.TensorDataset(lib.arange(11))
        batches = [b[0].tolist() for _ in range(2)
                   for b in lib.utils.data.DataLoader(ds, batch_size=3, shuffle=True, drop_last=True)]
        return batches, lib.rand(3).tolist()

    assert run(minigrad) == run(torch)


def test_loader_with_its_own_generator_and_random_split_match_pytorch(torch):
    def run(lib):
        g = lib.Generator().manual_seed(9)
        loader = lib.utils.data.DataLoader(list(range(7)), batch_size=2, shuffle=True, generator=g)
        parts = lib.utils.data.random_split(range(10), [0.5, 0.3, 0.2], generator=lib.Generator().manual_seed(1))
        return [b.tolist() for b in loader], [p.indices for p in parts]

    assert run(minigrad) == run(torch)


def test_default_collate_batches_like_pytorch(torch):
    samples = [(minigrad.tensor([1.0, 2.0]), 3, 0.5, {"k": 1}), (minigrad.tensor([4.0, 5.0]), 6, 1.5, {"k": 2})]
    x, ints, floats, d = next(iter(DataLoader(samples, batch_size=2)))
    assert x.shape == (2, 2) and ints.dtype == minigrad.int64 and floats.dtype == minigrad.float64
    assert d["k"].tolist() == [1, 2]
    assert len(DataLoader(TensorDataset(minigrad.arange(10)), batch_size=4)) == 3
    assert len(DataLoader(TensorDataset(minigrad.arange(10)), batch_size=4, drop_last=True)) == 2
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(range(3), [1, 1])


# --- convolution and pooling ----------------------------------------------------------------------


@pytest.mark.parametrize("stride, padding", [(1, 0), (2, 1), ((1, 2), (2, 0))])
def test_conv2d_and_max_pool2d_match_pytorch(torch, stride, padding):
    x = RNG.standard_normal((2, 3, 7, 6))
    w = RNG.standard_normal((4, 3, 3, 2))
    b = RNG.standard_normal(4)

    def net(lib, x, w, b):
        y = lib.nn.functional.conv2d(x, w, b, stride=stride, padding=padding)
        return lib.nn.functional.max_pool2d(y, 2, stride=1, padding=1)

    assert_same_values_and_grads(net, torch, x, w, b)
    assert_same_values_and_grads(lambda lib, x, w, b: lib.nn.functional.conv2d(x, w, b, stride, padding), torch,
                                 x, w, b)


def test_conv2d_and_max_pool2d_pass_gradcheck_to_second_order():
    x = minigrad.tensor(RNG.standard_normal((1, 2, 5, 4)), requires_grad=True)
    w = minigrad.tensor(RNG.standard_normal((3, 2, 2, 2)), requires_grad=True)
    b = minigrad.tensor(RNG.standard_normal(3), requires_grad=True)

    def fn(x, w, b):
        return F.max_pool2d(F.conv2d(x, w, b, stride=(1, 2), padding=1) ** 2, 2)

    assert gradcheck(fn, (x, w, b))
    assert gradgradcheck(fn, (x, w, b))


def test_seeded_conv2d_starts_from_pytorchs_numbers(torch):
    minigrad.manual_seed(2)
    torch.manual_seed(2)
    m, t = nn.Conv2d(3, 5, (3, 2)), torch.nn.Conv2d(3, 5, (3, 2))
    np.testing.assert_array_equal(m.weight.detach().numpy(), t.weight.detach().numpy())
    np.testing.assert_array_equal(m.bias.detach().numpy(), t.bias.detach().numpy())
    assert repr(m) == repr(t)


PADDING_STRINGS = {
    "Conv2d, same with a stride": lambda lib: lib.nn.Conv2d(3, 4, 3, stride=2, padding="same"),
    "Conv2d, same with a stride in one dim": lambda lib: lib.nn.Conv2d(3, 4, 3, stride=(1, 2), padding="same"),
    "Conv2d, an unknown string": lambda lib: lib.nn.Conv2d(3, 4, 3, padding="full"),
    "conv2d, same with a stride": lambda lib: lib.nn.functional.conv2d(
        lib.zeros(1, 3, 5, 5), lib.zeros(2, 3, 3, 3), stride=2, padding="same"),
    "conv2d, an unknown string": lambda lib: lib.nn.functional.conv2d(
        lib.zeros(1, 3, 5, 5), lib.zeros(2, 3, 3, 3), padding="full"),
    "conv2d, same": lambda lib: lib.nn.functional.conv2d(lib.ones(1, 3, 5, 5), lib.ones(2, 3, 3, 3), padding="same"),
    "conv2d, valid": lambda lib: lib.nn.functional.conv2d(lib.ones(1, 3, 5, 5), lib.ones(2, 3, 3, 3), padding="valid"),
}


@pytest.mark.parametrize("name", PADDING_STRINGS)
def test_padding_strings_are_checked_as_pytorch_checks_them(name, torch):
    def outcome(lib):
        try:
            result = PADDING_STRINGS[name](lib)
        except (ValueError, RuntimeError) as error:
            return type(error).__name__, str(error).split("\n\n")[0]
        return tuple(result.shape) if hasattr(result, "shape") else type(result).__name__

    assert outcome(minigrad) == outcome(torch)

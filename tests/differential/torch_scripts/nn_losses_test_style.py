# PyTorch-test-like checks of the losses: values, gradients and grad_fn names for each option.
import torch
import torch.nn as nn
import torch.nn.functional as F


def show(loss, *inputs):
    print(loss, loss.grad_fn.name() if loss.grad_fn is not None else None)
    loss.sum().backward()
    for t in inputs:
        print("  grad:", t.grad)
        t.grad = None


logits = torch.tensor([[1.5, -0.5, 0.2], [0.3, 0.8, -1.2], [-0.7, 0.1, 2.0], [0.0, 0.4, 0.9]], requires_grad=True)
classes = torch.tensor([0, 1, 2, 1])

# %% cross_entropy with each reduction
for reduction in ("mean", "sum", "none"):
    show(F.cross_entropy(logits, classes, reduction=reduction), logits)

# %% cross_entropy with class weights and ignore_index
w = torch.tensor([1.0, 2.0, 0.5])
show(F.cross_entropy(logits, classes, weight=w), logits)
show(F.cross_entropy(logits, torch.tensor([0, -100, 2, 1])), logits)
show(F.cross_entropy(logits, classes, ignore_index=1, reduction="none"), logits)
show(nn.CrossEntropyLoss(weight=w, ignore_index=2)(logits, classes), logits)

# %% cross_entropy with label smoothing
show(F.cross_entropy(logits, classes, label_smoothing=0.1), logits)
show(nn.CrossEntropyLoss(label_smoothing=0.2, reduction="sum")(logits, classes), logits)

# %% cross_entropy with class probabilities as targets
probs = torch.tensor([[0.7, 0.2, 0.1], [0.0, 1.0, 0.0], [0.2, 0.2, 0.6], [0.3, 0.3, 0.4]])
print(F.cross_entropy(logits, probs).item(), F.cross_entropy(logits, probs, reduction="sum").item())
loss = F.cross_entropy(logits, probs, reduction="none")
print(loss)
loss.sum().backward()
print(logits.grad)
logits.grad = None

# %% one sample: 1-D logits and a 0-d target
one = torch.tensor([0.5, 1.5, -1.0], requires_grad=True)
show(F.cross_entropy(one, torch.tensor(1)), one)

# %% a sequence model's (N, C, L) logits
seq = torch.tensor([[[0.1, 0.2], [0.3, -0.4], [1.0, 0.0]]], requires_grad=True)
out = F.cross_entropy(seq, torch.tensor([[2, 0]]))
print(out)
out.backward()
print(seq.grad)
print(F.cross_entropy(seq, torch.tensor([[2, 0]]), reduction="none"))

# %% nll_loss after log_softmax
logp = F.log_softmax(logits, dim=1)
show(F.nll_loss(logp, classes), logits)
show(nn.NLLLoss(weight=w, reduction="sum")(F.log_softmax(logits, dim=1), classes), logits)

# %% binary cross-entropy on probabilities
p = torch.tensor([0.9, 0.2, 0.6, 0.5], requires_grad=True)
t = torch.tensor([1.0, 0.0, 0.0, 1.0])
for reduction in ("mean", "sum", "none"):
    show(F.binary_cross_entropy(p, t, reduction=reduction), p)
show(F.binary_cross_entropy(p, t, weight=torch.tensor([1.0, 2.0, 3.0, 4.0])), p)
show(nn.BCELoss()(torch.sigmoid(logits[:, 0]), t), logits)

# %% binary cross-entropy clamps log(0) at -100
print(F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])))
print(F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([0.0, 1.0])))

# %% binary cross-entropy with logits, weights and pos_weight
z = torch.tensor([[2.0, -1.0], [0.5, 30.0], [-40.0, 0.0]], requires_grad=True)
target = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 0.5]])
show(F.binary_cross_entropy_with_logits(z, target), z)
show(F.binary_cross_entropy_with_logits(z, target, reduction="none"), z)
show(F.binary_cross_entropy_with_logits(z, target, pos_weight=torch.tensor([3.0, 0.5])), z)
show(nn.BCEWithLogitsLoss(weight=torch.tensor([1.0, 2.0]), reduction="sum")(z, target), z)
print(torch.allclose(F.binary_cross_entropy_with_logits(z, target), F.binary_cross_entropy(torch.sigmoid(z), target)))

# %% regression losses
a = torch.tensor([0.5, -1.0, 3.0, 0.2], requires_grad=True)
b = torch.tensor([0.0, 0.5, 0.0, 0.2])
for reduction in ("mean", "sum", "none"):
    show(F.mse_loss(a, b, reduction=reduction), a)
show(nn.L1Loss()(a, b), a)
show(F.l1_loss(a, b, reduction="none"), a)
show(nn.SmoothL1Loss()(a, b), a)
show(F.smooth_l1_loss(a, b, beta=0.5, reduction="none"), a)
show(nn.HuberLoss(delta=2.0)(a, b), a)

# %% the target gets a gradient too when it requires one
a2 = torch.tensor([0.5, -1.0], requires_grad=True)
b2 = torch.tensor([0.0, 0.5], requires_grad=True)
F.mse_loss(a2, b2).backward()
print(a2.grad, b2.grad)
F.binary_cross_entropy_with_logits(a2, torch.sigmoid(b2)).backward()
print(a2.grad, b2.grad)

# %% second derivative of a loss
x = torch.tensor([0.3, -0.2, 0.8], requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0])
loss = F.binary_cross_entropy_with_logits(x, y)
(g,) = torch.autograd.grad(loss, x, create_graph=True)
print(g.detach(), g.requires_grad)  # (its grad_fn is PyTorch's DivBackward1, minigrad's MulBackward0)
g.sum().backward()
print(x.grad)

# %% one_hot
print(F.one_hot(torch.tensor([0, 2, 1])))
print(F.one_hot(torch.tensor([[1], [3]]), num_classes=5))
print(F.one_hot(torch.arange(0, 5) % 3, num_classes=4).dtype)

# %% activations and their gradients
v = torch.tensor([-2.0, -0.5, 0.0, 0.5, 3.0], requires_grad=True)
for act in (nn.LeakyReLU(), nn.LeakyReLU(0.2), nn.ELU(), nn.GELU(), nn.GELU(approximate="tanh"), nn.Softplus(),
            nn.Softplus(beta=2.0, threshold=1.0), nn.SiLU(), nn.Sigmoid(), nn.Tanh(), nn.ReLU()):
    out = act(v)
    out.sum().backward()
    print(act, out, out.grad_fn.name(), v.grad)
    v.grad = None

# %% softmax and log_softmax modules
m = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(nn.Softmax(dim=1)(m))
print(nn.Softmax(dim=0)(m))
print(nn.LogSoftmax(dim=-1)(m))
print(nn.Softmax()(m))

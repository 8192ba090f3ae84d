# Losses as a classification lecture uses them: options of cross_entropy, BCE with logits and
# pos_weight, regression losses with their parameters, reductions, and their gradients.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(4, 3, requires_grad=True)
target = torch.tensor([0, 2, 1, 2])

# %% cross_entropy options
for kwargs in [{}, {"reduction": "sum"}, {"reduction": "none"}, {"label_smoothing": 0.1},
               {"weight": torch.tensor([1.0, 2.0, 0.5])}, {"ignore_index": 2},
               {"weight": torch.tensor([1.0, 2.0, 0.5]), "label_smoothing": 0.2},
               {"ignore_index": 1, "label_smoothing": 0.1, "reduction": "sum"}]:
    loss = F.cross_entropy(logits, target, **kwargs)
    g, = torch.autograd.grad(loss.sum(), logits)
    print(kwargs.keys(), loss.detach(), g.abs().sum().item() > 0, loss.grad_fn.name())

# %% probability targets
probs = torch.softmax(torch.randn(4, 3), dim=1)
loss = F.cross_entropy(logits, probs)
print(f"{loss.item():.5f}", F.cross_entropy(logits, probs, label_smoothing=0.1).item() > 0)
loss.backward()
print(logits.grad)
logits.grad = None

# %% every target ignored
print(F.cross_entropy(logits, torch.tensor([2, 2, 2, 2]), ignore_index=2))

# %% binary losses
z = torch.randn(5, requires_grad=True)
y = torch.tensor([1.0, 0.0, 1.0, 1.0, 0.0])
print(F.binary_cross_entropy_with_logits(z, y), F.binary_cross_entropy_with_logits(z, y, pos_weight=torch.tensor(3.0)))
print(F.binary_cross_entropy(torch.sigmoid(z), y), F.binary_cross_entropy(torch.sigmoid(z), y, reduction="none"))
print(nn.BCEWithLogitsLoss(reduction="sum")(z, y), nn.BCELoss(weight=torch.tensor([1.0, 2.0, 1.0, 2.0, 1.0]))(z.sigmoid(), y))

# %% regression losses
p = torch.linspace(-2, 2, 6, requires_grad=True)
t = torch.zeros(6)
print(F.mse_loss(p, t), F.l1_loss(p, t), F.smooth_l1_loss(p, t), F.smooth_l1_loss(p, t, beta=0.5), F.huber_loss(p, t, delta=1.5))
total = F.smooth_l1_loss(p, t, beta=0.5) + F.huber_loss(p, t, delta=1.5) + F.l1_loss(p, t)
total.backward()
print(p.grad)

# %% mistake: the arguments swapped (integer "logits")
F.cross_entropy(target, logits)

# %% mistake: float class indices
F.cross_entropy(logits, target.float())

# %% mistake: BCE on logits outside [0, 1]
F.binary_cross_entropy(torch.tensor([1.5, -0.5]), torch.tensor([1.0, 0.0]))

# %% mistake: target of the wrong size for BCE with logits
F.binary_cross_entropy_with_logits(torch.zeros(3), torch.zeros(4))

# %% mistake: class index out of range
F.cross_entropy(logits, torch.tensor([0, 1, 2, 3]))

# %% mistake: MSE between shapes that broadcast
print(F.mse_loss(torch.zeros(3, 1), torch.zeros(3)))

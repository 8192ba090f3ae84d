# Optimizers and schedulers as a training-loop lecture uses them: several optimizers on one toy
# problem, parameter groups, state, schedulers, and mistakes with them.
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(16, 3)
true_w = torch.tensor([[1.0], [-2.0], [0.5]])
Y = X @ true_w + 0.1


def fit(opt_cls, steps=5, **kwargs):
    torch.manual_seed(1)
    model = nn.Linear(3, 1)
    opt = opt_cls(model.parameters(), **kwargs)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(X) - Y) ** 2).mean()
        loss.backward()
        opt.step()
    return f"{loss.item():.5f}", [f"{v:.4f}" for v in model.weight.detach().flatten().tolist()]


# %% optimizers
print(fit(torch.optim.SGD, lr=0.1))
print(fit(torch.optim.SGD, lr=0.1, momentum=0.9, nesterov=True))
print(fit(torch.optim.SGD, lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01))
print(fit(torch.optim.Adam, lr=0.05))
print(fit(torch.optim.Adam, lr=0.05, amsgrad=True, weight_decay=0.1))
print(fit(torch.optim.AdamW, lr=0.05))
print(fit(torch.optim.RMSprop, lr=0.01))
print(fit(torch.optim.RMSprop, lr=0.01, momentum=0.5, centered=True))
print(fit(torch.optim.Adagrad, lr=0.1))

# %% parameter groups and their learning rates
torch.manual_seed(1)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
opt = torch.optim.SGD([{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 0.01}],
                      lr=0.1, momentum=0.9)
print([g["lr"] for g in opt.param_groups], [g["momentum"] for g in opt.param_groups])
print(sorted(opt.param_groups[1].keys()))
loss = ((model(X) - Y) ** 2).mean()
loss.backward()
opt.step()
print(len(opt.state), sorted(opt.state[model[0].weight].keys()))
print(opt.state_dict()["param_groups"][1]["params"], list(opt.state_dict()["state"].keys()))

# %% schedulers
torch.manual_seed(1)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
lrs = []
for epoch in range(6):
    opt.step()
    sched.step()
    lrs.append(sched.get_last_lr()[0])
print(lrs)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
out = []
for epoch in range(5):
    opt.step()
    sched.step()
    out.append(round(opt.param_groups[0]["lr"], 6))
print(out)
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.9 ** e)
for _ in range(3):
    opt.step()
    sched.step()
print(round(opt.param_groups[0]["lr"], 6), sched.last_epoch)

# %% zero_grad variants
torch.manual_seed(1)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
((model(X) - Y) ** 2).mean().backward()
opt.zero_grad(set_to_none=False)
print(model.weight.grad)
opt.zero_grad()
print(model.weight.grad)

# %% mistake: the scheduler stepped before the optimizer
opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1)
sched.step()
opt.step()
print(opt.param_groups[0]["lr"])

# %% mistake: a negative learning rate
torch.optim.SGD(model.parameters(), lr=-0.1)

# %% mistake: parameters given as a generator twice
params = model.parameters()
opt1 = torch.optim.SGD(params, lr=0.1)
opt2 = torch.optim.SGD(params, lr=0.1)

# %% mistake: an empty parameter list
torch.optim.Adam([])

# %% mistake: nesterov without momentum
torch.optim.SGD(model.parameters(), lr=0.1, nesterov=True)

# %% mistake: a tensor that is not a leaf
w = torch.ones(2, requires_grad=True) * 2
torch.optim.SGD([w], lr=0.1)

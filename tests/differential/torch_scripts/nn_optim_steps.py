# The optimizers step by step, as a docs example or a lecture shows them: same start, same
# gradients, the parameters and the optimizer state printed after each step.
import torch
import torch.nn as nn


def run(make_optimizer, steps=3):
    w = nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
    b = nn.Parameter(torch.tensor([0.3]))
    opt = make_optimizer([w, b])
    x = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 2.0]])
    y = torch.tensor([1.0, -1.0])
    for step in range(steps):
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.6f}", w.data, b.data)
    return opt


# %% plain SGD
run(lambda p: torch.optim.SGD(p, lr=0.05))

# %% SGD with momentum, dampening and weight decay
opt = run(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01))
print(opt.state_dict()["state"][0])

# %% SGD with Nesterov momentum
run(lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True))

# %% Adam
opt = run(lambda p: torch.optim.Adam(p, lr=0.1))
print(opt.state_dict()["state"][0])

# %% Adam with weight decay and AMSGrad
run(lambda p: torch.optim.Adam(p, lr=0.1, betas=(0.8, 0.99), weight_decay=0.1, amsgrad=True))

# %% AdamW
opt = run(lambda p: torch.optim.AdamW(p, lr=0.1))
print(opt)

# %% RMSprop, plain and centered with momentum
run(lambda p: torch.optim.RMSprop(p, lr=0.01))
opt = run(lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True, weight_decay=0.1))
print(sorted(opt.state_dict()["state"][0]))

# %% Adagrad
opt = run(lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1))
print(opt.state_dict()["state"][1])

# %% parameter groups with their own learning rates, changed by hand
model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
opt = torch.optim.SGD([{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 1e-3}],
                      lr=1e-2, momentum=0.9)
print(len(opt.param_groups), [g["lr"] for g in opt.param_groups])
for g in opt.param_groups:
    g["lr"] = g["lr"] * 0.5
print([g["lr"] for g in opt.param_groups])
print(opt.state_dict()["param_groups"][1])

# %% saving and restoring the optimizer's state
w = nn.Parameter(torch.tensor([1.0, 2.0]))
opt = torch.optim.Adam([w], lr=0.1)
(w ** 2).sum().backward()
opt.step()
saved = opt.state_dict()
w2 = nn.Parameter(w.detach().clone())
opt2 = torch.optim.Adam([w2], lr=0.5)
opt2.load_state_dict(saved)
print(opt2.param_groups[0]["lr"], opt2.state[w2]["step"], opt2.state[w2]["exp_avg"])
w.grad = None
(w ** 2).sum().backward()
w2.grad = w.grad.clone()
opt.step()
opt2.step()
print(w.data, w2.data)

# %% a closure, as LBFGS-style code passes one
w = nn.Parameter(torch.tensor([3.0]))
opt = torch.optim.SGD([w], lr=0.1)


def closure():
    opt.zero_grad()
    loss = (w - 1) ** 2
    loss.backward()
    return loss


for _ in range(3):
    print(opt.step(closure).item(), w.item())

# %% learning-rate schedules
def lrs(make_scheduler, epochs=6):
    opt = torch.optim.SGD([nn.Parameter(torch.zeros(1))], lr=1.0)
    sched = make_scheduler(opt)
    out = []
    for _ in range(epochs):
        opt.step()
        sched.step()
        out.append(round(sched.get_last_lr()[0], 6))
    return out


print(lrs(lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5)))
print(lrs(lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9)))
print(lrs(lambda o: torch.optim.lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 1 / (epoch + 1))))

# %% zero_grad sets gradients to None by default
w = nn.Parameter(torch.tensor([1.0, 2.0]))
opt = torch.optim.SGD([w], lr=0.1)
(w * 3).sum().backward()
print(w.grad)
opt.zero_grad()
print(w.grad)
(w * 3).sum().backward()
opt.zero_grad(set_to_none=False)
print(w.grad)

# %% clipping the gradient norm before the step, as a training loop does
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-1.0, 1.0, p.numel()).reshape(p.shape) * (i + 1))
loss = model(torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])).pow(2).sum()
loss.backward()
total = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total, sum(p.grad.pow(2).sum() for p in model.parameters()).sqrt())
print(torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5, norm_type=float("inf")))
print(model[2].bias.grad)
torch.nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
print(model[0].bias.grad)

# %% a non-finite gradient norm
w = nn.Parameter(torch.ones(2))
w.grad = torch.tensor([float("inf"), 1.0])
print(torch.nn.utils.clip_grad_norm_([w], 1.0))
torch.nn.utils.clip_grad_norm_([w], 1.0, error_if_nonfinite=True)

# %% multi-step and cosine schedules
print(lrs(lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[2, 4, 4], gamma=0.5)))
print(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4), epochs=12))
print(lrs(lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=3, eta_min=0.1), epochs=8))

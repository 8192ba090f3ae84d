# A tour of nn.Module as a course's second week writes it: printing models, walking modules,
# freezing, dtypes, buffers, state dicts, hooks, clipping, and the mistakes that come with them.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.1), nn.Linear(8, 3))
        self.heads = nn.ModuleList([nn.Linear(3, 2), nn.Linear(3, 1)])
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer("count", torch.zeros((), dtype=torch.long))

    def forward(self, x):
        self.count += 1
        h = self.body(x) * self.scale
        return [head(h) for head in self.heads]


net = Net()

# %% print and walk
print(net)
print([n for n, _ in net.named_modules()])
print([n for n, _ in net.named_children()])
print([(n, tuple(p.shape)) for n, p in net.named_parameters()])
print([n for n, _ in net.named_buffers()], sum(p.numel() for p in net.parameters()))
print(net.body[0], net.body[-1], len(net.body), net.body[1:3])

# %% state dict
sd = net.state_dict()
print(list(sd.keys()))
print(sd["count"], sd["body.0.bias"].shape, sd["scale"].requires_grad)
print(net.load_state_dict(sd))
missing = net.load_state_dict({k: v for k, v in sd.items() if k != "scale"}, strict=False)
print(missing)
print(missing.missing_keys, missing.unexpected_keys)

# %% freeze and count trainable
for p in net.body.parameters():
    p.requires_grad_(False)
print(sum(p.numel() for p in net.parameters() if p.requires_grad))
out = net(torch.randn(5, 4))
(out[0].sum() + out[1].sum()).backward()
print(net.body[0].weight.grad, net.heads[0].weight.grad.shape, net.count)

# %% train and eval flags
net.eval()
print(net.training, net.body[2].training)
net.train()
print(net.training, net.body[2].training)

# %% dtypes
net.double()
print(net.body[0].weight.dtype, net.count.dtype, net.scale.dtype)
net.float()
y = net(torch.randn(2, 4))
print([t.dtype for t in y])

# %% forward hooks
seen = []
h = net.body[0].register_forward_hook(lambda m, inp, out: seen.append((type(m).__name__, tuple(out.shape))))
net(torch.randn(3, 4))
h.remove()
net(torch.randn(3, 4))
print(seen)

# %% clip the gradient norm
net.zero_grad()
for p in net.parameters():
    p.requires_grad_(True)
out = net(torch.randn(6, 4))
(out[0].pow(2).sum() * 100).backward()
total = torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=1.0)
print(f"{total.item():.4f}", f"{torch.cat([p.grad.flatten() for p in net.parameters()]).norm().item():.4f}")
print(torch.nn.utils.parameters_to_vector(net.parameters()).shape)

# %% zero_grad sets to None
net.zero_grad()
print(net.body[0].weight.grad)

# %% ModuleDict and apply
torch.manual_seed(0)
d = nn.ModuleDict({"a": nn.Linear(2, 2), "b": nn.Tanh()})
print(d, list(d.keys()), "a" in d)


def init(m):
    if isinstance(m, nn.Linear):
        nn.init.constant_(m.weight, 0.5)
        nn.init.zeros_(m.bias)


d.apply(init)
print(d["a"].weight, d["b"](torch.tensor([0.0, 1.0])))

# %% mistake: a plain list of layers is not registered
class Bad(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(2, 2)]


print(list(Bad().parameters()))

# %% mistake: forgetting super().__init__()
class Forgot(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)


Forgot()

# %% mistake: loading a state dict with a wrong shape
small = nn.Linear(2, 3)
small.load_state_dict({"weight": torch.zeros(3, 3), "bias": torch.zeros(3)})

# %% mistake: strict loading with a missing key
small.load_state_dict({"weight": torch.zeros(3, 2)})

# %% mistake: a parameter that is not a tensor
net.scale = 3.0
print(type(net.scale))

# %% mistake: assigning a tensor to a parameter's name
net2 = nn.Linear(2, 2)
net2.weight = torch.zeros(2, 2)

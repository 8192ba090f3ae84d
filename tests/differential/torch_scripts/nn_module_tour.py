# A tour of nn.Module the way a docs page or a lecture walks through it: printing, walking the
# tree, buffers, hooks, copying, casting and freezing.
import copy
from collections import OrderedDict

import torch
import torch.nn as nn

# %% a model with named layers, printed
torch.manual_seed(0)
model = nn.Sequential(OrderedDict([
    ("fc1", nn.Linear(2, 16)),
    ("act", nn.ReLU()),
    ("drop", nn.Dropout(0.1)),
    ("fc2", nn.Linear(16, 1)),
]))
print(model)
print(model.fc1, model[0] is model.fc1, model[-1])
print(len(model), [type(m).__name__ for m in model])

# %% slicing a Sequential gives a Sequential
head = model[:2]
print(type(head).__name__, head)
print(model[1:][0])

# %% growing and editing a Sequential
seq = nn.Sequential(nn.Linear(2, 2))
seq.append(nn.Tanh())
seq.insert(0, nn.Identity())
seq.extend([nn.Sigmoid()])
print(seq)
del seq[0]
seq[1] = nn.GELU()
print(seq)

# %% a Parameter prints as such
print(model.fc2.bias)
print(nn.Parameter(torch.tensor([[1.0, 2.0]])))
print(nn.Parameter(torch.zeros(2), requires_grad=False))
print(type(model.fc2.weight).__name__, isinstance(model.fc2.weight, torch.Tensor))

# %% walking the module tree
print([name for name, _ in model.named_children()])
print([name for name, _ in model.named_modules()])
print([type(m).__name__ for m in model.children()])
print([type(m).__name__ for m in model.modules()])
print([(name, tuple(p.shape)) for name, p in model.named_parameters()])
print(sum(p.numel() for p in model.parameters()))

# %% a custom module with a buffer and its own extra_repr
class Scale(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("scale", torch.full((n,), 2.0))
        self.register_buffer("scratch", torch.zeros(n), persistent=False)
        self.offset = nn.Parameter(torch.zeros(n))
        self.n = n

    def forward(self, x):
        return x * self.scale + self.offset

    def extra_repr(self):
        return f"n={self.n}"


s = Scale(3)
print(s)
print(list(s.state_dict().keys()), [n for n, _ in s.named_buffers()])
print(s(torch.tensor([1.0, 2.0, 3.0])))
wrapped = nn.Sequential(s, nn.Tanh())
print(wrapped)
print(list(wrapped.state_dict().keys()))

# %% state_dict values are detached copies of the same memory
sd = model.state_dict()
before = model.fc2.bias.item()
sd["fc2.bias"].add_(1.0)
print(sd["fc2.bias"].requires_grad, round(model.fc2.bias.item() - before, 4))
print(model.load_state_dict(sd))
print(model.load_state_dict({k: v for k, v in sd.items() if k != "fc2.bias"}, strict=False))

# %% forward hooks see inputs and outputs
seen = []
handle = model.fc1.register_forward_hook(lambda module, args, output: seen.append((type(module).__name__,
                                                                                    args[0].shape, output.shape)))
pre = model.fc2.register_forward_pre_hook(lambda module, args: (args[0] * 0,))
out = model.eval()(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(seen, out)
handle.remove()
pre.remove()
model(torch.ones(1, 2))
print(len(seen))
model.train()

# %% train and eval switch every submodule
model.eval()
print(model.training, model.drop.training)
model.train()
print(model.training, model.drop.training)

# %% freezing: requires_grad_ on a module
model.fc1.requires_grad_(False)
print([(n, p.requires_grad) for n, p in model.named_parameters()])
loss = model(torch.ones(4, 2)).sum()
loss.backward()
print(model.fc1.weight.grad, model.fc2.bias.grad)
model.requires_grad_()

# %% deepcopy gives independent parameters (and leaves tensor hooks behind)
calls = []
model.fc2.weight.register_hook(lambda g: calls.append("hook"))
clone = copy.deepcopy(model)
print(clone.fc2.weight is model.fc2.weight, torch.equal(clone.fc2.weight, model.fc2.weight))
print(clone.fc2.weight.grad, clone.fc2.weight.requires_grad, type(clone.fc2.weight).__name__)
clone.eval()(torch.ones(1, 2)).sum().backward()
print(calls)
with torch.no_grad():
    clone.fc2.bias.fill_(5.0)
print(model.fc2.bias.item() == 5.0)

# %% casting with double(), float() and to()
m = nn.Linear(2, 1)
print(m.double().weight.dtype, m.float().bias.dtype)
print(m.to(torch.float64).weight.dtype, m.to("cpu") is m, m.to(torch.device("cpu"), torch.float32).weight.dtype)
bn = nn.BatchNorm1d(2).double()
print(bn.running_mean.dtype, bn.num_batches_tracked.dtype)

# %% apply runs children first, then the module itself
order = []
model.apply(lambda m: order.append(type(m).__name__))
print(order)

# %% zero_grad on the module
model.zero_grad()
print([p.grad for p in model.parameters()][:2])

# %% get_submodule and get_parameter by dotted name
net = nn.Sequential(nn.Sequential(nn.Linear(1, 1)), nn.ReLU())
print(net.get_submodule("0.0"), net.get_parameter("0.0.bias").shape)

# %% an Embedding, from scratch and from pretrained vectors
torch.manual_seed(0)
emb = nn.Embedding(4, 2, padding_idx=0)
print(emb, emb.weight)
idx = torch.tensor([[0, 2], [3, 2]])
out = emb(idx)
out.sum().backward()
print(out.shape, emb.weight.grad)
pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(pre(torch.tensor([1, 0, 1])), pre.weight.requires_grad)

# %% full backward hooks see the gradients at a module's input and output
torch.manual_seed(0)
lin = nn.Linear(2, 2)
handle = lin.register_full_backward_hook(
    lambda module, grad_input, grad_output: print(type(module).__name__, grad_input, grad_output))
x = torch.ones(3, 2, requires_grad=True)
y = lin(x)
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
y.sum().backward()
print(x.grad)
handle.remove()
lin(x).sum().backward()

# %% a backward hook that replaces the input's gradient
relu = nn.ReLU()
relu.register_full_backward_hook(lambda module, grad_input, grad_output: (grad_input[0] * 10,))
x = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)
relu(x).sum().backward()
print(x.grad)

# %% backward hooks on every layer (the first one's input needs no gradient: a warning)
seq = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
seen = []
for name, layer in seq.named_children():
    layer.register_full_backward_hook(
        lambda m, gin, gout, name=name: seen.append((name, gin[0] is None, gout[0].shape)))
seq(torch.ones(4, 2)).sum().backward()
print(seen)

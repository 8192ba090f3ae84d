# A course notebook's cells: a character-level MLP with embeddings and batch norm, then the
# layers the lecture pokes at one by one (dropout, layer norm, init, containers, schedules).
import torch
import torch.nn as nn
import torch.nn.functional as F

# %% a tiny vocabulary and a dataset of 3-character contexts
words = ["emma", "olivia", "ava", "isabella", "sophia"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)
block_size = 3
X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + ".":
        ix = stoi[ch]
        X.append(context)
        Y.append(ix)
        context = context[1:] + [ix]
X, Y = torch.tensor(X), torch.tensor(Y)
print(vocab_size, X.shape, X.dtype, Y.shape, Y.dtype)

# %% the model as modules
torch.manual_seed(42)
n_embd, n_hidden = 4, 16
model = nn.Sequential(
    nn.Embedding(vocab_size, n_embd),
    nn.Flatten(),
    nn.Linear(n_embd * block_size, n_hidden, bias=False),
    nn.BatchNorm1d(n_hidden),
    nn.Tanh(),
    nn.Linear(n_hidden, vocab_size),
)
with torch.no_grad():
    model[-1].weight *= 0.1
print(model)
print(sum(p.nelement() for p in model.parameters()))
print(model[0].weight[:2])

# %% the training loop with minibatches and a step-decay learning rate
g = torch.Generator().manual_seed(2147483647)
lossi = []
for i in range(30):
    ix = torch.randint(0, X.shape[0], (8,), generator=g)
    logits = model(X[ix])
    loss = F.cross_entropy(logits, Y[ix])
    for p in model.parameters():
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 20 else 0.01
    for p in model.parameters():
        p.data += -lr * p.grad
    lossi.append(loss.log10().item())
    if i % 10 == 0:
        print(f"{i:7d}: {loss.item():.4f}")
print(loss.grad_fn, loss.grad_fn.next_functions[0][0])

# %% batch norm's running statistics, then evaluation mode
bn = model[3]
print(bn.running_mean[:4])
print(bn.running_var[:4])
print(bn.num_batches_tracked)
model.eval()
with torch.no_grad():
    print(F.cross_entropy(model(X), Y).item())
model.train()
print(bn.training, model.training)

# %% sampling from the model
g = torch.Generator().manual_seed(2147483647 + 10)
model.eval()
for _ in range(3):
    out, context = [], [0] * block_size
    while True:
        logits = model(torch.tensor([context]))
        probs = F.softmax(logits, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 10:
            break
    print("".join(itos[i] for i in out))

# %% cross_entropy is log_softmax then nll_loss
logits = torch.tensor([[2.0, -1.0, 0.5], [0.1, 0.2, 0.3]], requires_grad=True)
targets = torch.tensor([0, 2])
a = F.cross_entropy(logits, targets)
b = F.nll_loss(F.log_softmax(logits, dim=1), targets)
print(a, b)
a.backward()
print(logits.grad)

# %% dropout in training and in evaluation mode
torch.manual_seed(0)
drop = nn.Dropout(p=0.5)
x = torch.ones(2, 6, requires_grad=True)
y = drop(x)
print(y)
y.sum().backward()
print(x.grad)
drop.eval()
print(drop(x) is x, drop)

# %% layer norm normalises each row
ln = nn.LayerNorm(3)
h = torch.tensor([[1.0, 2.0, 4.0], [0.0, 1.0, 5.0]], requires_grad=True)
out = ln(h)
print(out)
print(out.mean(-1), out.var(-1, unbiased=False))
(out * torch.tensor([1.0, -2.0, 0.5])).sum().backward()
print(h.grad)
print(ln.weight.grad, ln.bias.grad)

# %% batch norm by hand agrees with nn.BatchNorm1d
bn = nn.BatchNorm1d(3)
h = torch.tensor([[1.0, 2.0, 4.0], [0.0, 0.0, 3.0], [2.0, -1.0, 1.0]], requires_grad=True)
out = bn(h)
by_hand = (h - h.mean(0, keepdim=True)) / torch.sqrt(h.var(0, keepdim=True, unbiased=False) + 1e-5)
print(out)
print((out - by_hand).abs().max() < 1e-5)
out[:, 0].sum().backward()
print(h.grad)
print(bn.running_mean, bn.running_var)

# %% initialisation helpers
torch.manual_seed(1)
w = torch.empty(3, 5)
nn.init.kaiming_normal_(w, mode="fan_in", nonlinearity="relu")
print(w)
nn.init.xavier_uniform_(w)
print(w)
nn.init.zeros_(w)
print(w.sum())
print(nn.init.calculate_gain("tanh"), nn.init.calculate_gain("relu"), nn.init.calculate_gain("leaky_relu", 0.2))
layer = nn.Linear(5, 2)
nn.init.constant_(layer.bias, 0.1)
nn.init.normal_(layer.weight, mean=0.0, std=0.02)
print(layer.weight, layer.bias)

# %% apply(fn) to re-initialise every Linear
torch.manual_seed(3)
net = nn.Sequential(nn.Linear(2, 3), nn.GELU(), nn.Linear(3, 1))


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)


net.apply(init_weights)
print(net[0].weight, net[2].bias)

# %% ModuleList and ModuleDict register their layers
class Blocks(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
        self.acts = nn.ModuleDict({"relu": nn.ReLU(), "lrelu": nn.LeakyReLU(0.1)})
        self.plain = [nn.Linear(2, 2)]

    def forward(self, x, act="relu"):
        for layer in self.layers:
            x = self.acts[act](layer(x))
        return x


torch.manual_seed(0)
blocks = Blocks()
print(blocks)
print(len(list(blocks.parameters())))
print([name for name, _ in blocks.named_modules()])
print(blocks(torch.tensor([[1.0, -1.0]]), act="lrelu"))

# %% a learning-rate schedule
opt = torch.optim.SGD(nn.Linear(2, 1).parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(5):
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]["lr"])

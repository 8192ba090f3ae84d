# A lecture-notebook-style character MLP (embedding table, a hidden tanh layer, cross-entropy),
# the way such notebooks build it step by step: a seeded generator, index tensors, C[X],
# view, manual parameter updates under no_grad, a learning-rate sweep and batch statistics.
import torch
import torch.nn.functional as F

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "ella", "anna", "lily"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(stoi)
block_size = 3

# %% build the dataset of (context, next character)
X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + ".":
        ix = stoi[ch]
        X.append(context)
        Y.append(ix)
        context = context[1:] + [ix]
X = torch.tensor(X)
Y = torch.tensor(Y)
print(X.shape, X.dtype, Y.shape, Y.dtype)
print(X[:3], Y[:3])

# %% parameters from a seeded generator
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((vocab_size, 2), generator=g)
W1 = torch.randn((6, 20), generator=g)
b1 = torch.randn(20, generator=g)
W2 = torch.randn((20, vocab_size), generator=g)
b2 = torch.randn(vocab_size, generator=g)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True

# %% the embedding lookup three ways
emb = C[X]
print(emb.shape)
a = torch.cat([emb[:, 0, :], emb[:, 1, :], emb[:, 2, :]], 1)
b = torch.cat(torch.unbind(emb, 1), 1)
c = emb.view(emb.shape[0], 6)
print(a.shape, torch.allclose(a, b), (a == c).all())
print(C[5], F.one_hot(torch.tensor(5), num_classes=vocab_size).float() @ C)

# %% forward pass by hand
h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
print(h.shape)
logits = h @ W2 + b2
counts = logits.exp()
prob = counts / counts.sum(1, keepdims=True)
print(prob.shape, prob[0].sum())
loss_by_hand = -prob[torch.arange(X.shape[0]), Y].log().mean()
loss = F.cross_entropy(logits, Y)
print(loss_by_hand.item(), loss.item())
print(torch.allclose(loss, loss_by_hand))

# %% a training loop with manual updates and minibatches from the generator
lossi = []
stepi = []
for i in range(30):
    ix = torch.randint(0, X.shape[0], (8,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 20 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    stepi.append(i)
    lossi.append(loss.log10().item())
print([round(v, 3) for v in lossi[::5]])

# %% the loss on the whole set, without a graph
with torch.no_grad():
    emb = C[X]
    h = torch.tanh(emb.view(-1, 6) @ W1 + b1)
    logits = h @ W2 + b2
    print(F.cross_entropy(logits, Y).item(), logits.requires_grad)

# %% a learning-rate sweep's grid
lre = torch.linspace(-3, 0, 7)
lrs = 10 ** lre
print(lrs)

# %% batch statistics, the way batch-norm is introduced
hpreact = emb.view(-1, 6) @ W1 + b1
bnmean = hpreact.mean(0, keepdim=True)
bnstd = hpreact.std(0, keepdim=True)
bnvar = hpreact.var(0, keepdim=True, unbiased=False)
hnorm = (hpreact - bnmean) / bnstd
print(bnmean.shape, bnstd.shape, bnvar.shape)
print(hnorm.mean(0).abs().max() < 1e-5, hnorm.std(0)[:3])
print((hpreact.abs() > 0.97 * hpreact.abs().max()).float().mean(0).shape)

# %% saturated tanh units
h = torch.tanh(hpreact)
print((h.abs() > 0.99).sum().item() >= 0, (h.abs() > 0.99).float().mean().item() <= 1.0)

# %% sampling from the model with the generator
g2 = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(3):
    out = []
    context = [0] * block_size
    while True:
        emb = C[torch.tensor([context])]
        h = torch.tanh(emb.view(1, -1) @ W1 + b1)
        logits = h @ W2 + b2
        probs = F.softmax(logits, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g2).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 12:
            break
    print("".join(itos[i] for i in out))

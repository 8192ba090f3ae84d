# A lecture notebook in the style of a character-level bigram model: counts, a seeded generator,
# sampling names one character at a time, then a small neural net with random initial weights.
import torch

words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "amelia", "harper", "evelyn", "abigail",
         "emily", "ella", "elizabeth", "camila", "luna", "sofia", "avery", "mila", "aria", "scarlett"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)

# %% count the bigrams
N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    cs = ["."] + list(w) + ["."]
    for c1, c2 in zip(cs, cs[1:]):
        N[stoi[c1], stoi[c2]] += 1
print(V, N.sum())

# %% a seeded generator and the first row of probabilities
g = torch.Generator().manual_seed(2147483647)
p = N[0].float()
p = p / p.sum()
print(p)
ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
print(ix, itos[ix])

# %% a random distribution, sampled many times
g = torch.Generator().manual_seed(2147483647)
p = torch.rand(3, generator=g)
p = p / p.sum()
print(p)
print(torch.multinomial(p, num_samples=20, replacement=True, generator=g))

# %% sample names from the counts (smoothed)
P = (N + 1).float()
P /= P.sum(1, keepdim=True)
g = torch.Generator().manual_seed(2147483647)
for i in range(8):
    out = []
    ix = 0
    while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))

# %% the training set of bigrams
xs, ys = [], []
for w in words:
    cs = ["."] + list(w) + ["."]
    for c1, c2 in zip(cs, cs[1:]):
        xs.append(stoi[c1])
        ys.append(stoi[c2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement() if hasattr(xs, "nelement") else xs.numel()
print("number of examples:", num)

# %% random initial weights from the generator
g = torch.Generator().manual_seed(2147483647)
W = torch.randn((V, V), generator=g, requires_grad=True)
print(W.shape)
print(W[0, :6])
print(W[5:7, 10:14])

# %% a few steps of gradient descent
for k in range(3):
    logits = W[xs]
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdim=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W ** 2).mean()
    W.grad = None
    loss.backward()
    W.data += -50 * W.grad
    print(k, round(loss.item(), 4))

# %% sample from the trained net
g = torch.Generator().manual_seed(2147483647)
for i in range(5):
    out = []
    ix = 0
    while True:
        counts = W[ix].exp()
        p = counts / counts.sum()
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
            break
    print("".join(out))

# %% an MLP's embedding table and a minibatch of indices
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((V, 2), generator=g)
W1 = torch.randn((6, 10), generator=g) * 0.2
b1 = torch.randn(10, generator=g) * 0.01
print(C[:3])
print(W1[0])
print(b1)
batch = torch.randint(0, num, (32,), generator=g)
print(batch)

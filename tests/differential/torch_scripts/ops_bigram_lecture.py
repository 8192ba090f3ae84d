# A lecture-notebook-style character bigram model, written the way such notebooks go:
# count pairs into a matrix, normalise rows into probabilities, score a word, then learn
# the same table with a one-layer network and gradient descent. Literal data, no randomness.
import torch
import torch.nn.functional as F

words = ["anna", "bob", "ada", "eve", "otto", "abba"]
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
V = len(stoi)

# %% count the bigrams into an integer matrix
N = torch.zeros((V, V), dtype=torch.int32)
for w in words:
    cs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(cs, cs[1:]):
        ix1, ix2 = stoi[ch1], stoi[ch2]
        N[ix1, ix2] += 1
print(N)
print(N.dtype, N.shape)
print(N[0], N[0].sum())

# %% rows into probabilities, in place
P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print(P[0])
print(P.sum(1))
print(P.shape, P.sum(1, keepdim=True).shape)

# %% the row sum broadcast the wrong way (a classic bug): still runs, other numbers
Q = (N + 1).float()
Q = Q / Q.sum(0)
print(Q[0, :4])
print(Q.sum(1)[:4])

# %% log likelihood of the training words
log_likelihood = 0.0
n = 0
for w in words:
    cs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(cs, cs[1:]):
        prob = P[stoi[ch1], stoi[ch2]]
        logprob = torch.log(prob)
        log_likelihood += logprob
        n += 1
print(f"{log_likelihood=}")
nll = -log_likelihood
print(f"{nll/n}")
print(type(log_likelihood), log_likelihood.dtype)

# %% the training set of bigrams as index tensors
xs, ys = [], []
for w in words:
    cs = ["."] + list(w) + ["."]
    for ch1, ch2 in zip(cs, cs[1:]):
        xs.append(stoi[ch1])
        ys.append(stoi[ch2])
xs = torch.tensor(xs)
ys = torch.tensor(ys)
num = xs.nelement()
print(xs[:8], ys[:8], num)
print(xs.dtype)

# %% one-hot inputs
xenc = torch.eye(V)[xs]  # one-hot rows (F.one_hot is the usual spelling)
print(xenc.shape, xenc.dtype)
print(xenc[:3])

# %% a weight matrix with literal values, softmax by hand
W = (torch.arange(V * V, dtype=torch.float32).view(V, V) % 7 - 3.0) / 10
W.requires_grad = True
logits = xenc @ W
counts = logits.exp()
probs = counts / counts.sum(1, keepdims=True)
print(probs.shape)
print(probs[0])
print(probs[torch.arange(5), ys[:5]])

# %% the loss and one step of gradient descent
loss = -probs[torch.arange(num), ys].log().mean()
print(loss.item())
print(loss.grad_fn)
W.grad = None
loss.backward()
print(W.grad.shape, W.grad[0, :4])
W.data += -0.1 * W.grad
print(W[0, :4])

# %% a few more steps, with an L2 penalty, keeping the losses in a list
lossi = []
for k in range(5):
    logits = xenc @ W
    counts = logits.exp()
    probs = counts / counts.sum(1, keepdims=True)
    loss = -probs[torch.arange(num), ys].log().mean() + 0.01 * (W**2).mean()
    lossi.append(loss.log10().item())
    W.grad = None
    loss.backward()
    W.data += -10 * W.grad
print([round(l, 4) for l in lossi])

# %% the same loss with cross_entropy
logits = xenc @ W
print(F.cross_entropy(logits, ys).item())
print(torch.allclose(F.cross_entropy(logits, ys), -logits.log_softmax(1)[torch.arange(num), ys].mean()))

# %% embedding lookup and concatenation, as the next lecture does
C = torch.arange(V * 2, dtype=torch.float32).view(V, 2) / 10
X = torch.tensor([[0, 1], [1, 2], [2, 3], [3, 0]])
emb = C[X]
print(emb.shape)
print(torch.cat([emb[:, 0, :], emb[:, 1, :]], 1))
print(torch.cat(torch.unbind(emb, 1), 1).shape)
print(emb.view(4, 4))
print(emb.view(-1, 4).shape)
h = torch.tanh(emb.view(-1, 4) @ torch.ones(4, 3) / 4)
print(h.shape, h)

# %% sampling greedily from P (no randomness: argmax)
out = []
ix = 0
for _ in range(6):
    ix = P[ix].argmax().item()
    if ix == 0:
        break
    out.append(itos[ix])
print("".join(out))

# A lecture-style notebook: a tiny character-level MLP, its loss written out op by op,
# every intermediate's gradient derived by hand and compared with autograd's.
import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
vocab, block, emb_dim, hidden, n = 27, 3, 10, 64, 32

# %% parameters from a seeded generator
C = torch.randn((vocab, emb_dim), generator=g)
W1 = torch.randn((block * emb_dim, hidden), generator=g) * (5 / 3) / ((block * emb_dim) ** 0.5)
b1 = torch.randn(hidden, generator=g) * 0.1
W2 = torch.randn((hidden, vocab), generator=g) * 0.1
b2 = torch.randn(vocab, generator=g) * 0.1
bngain = torch.randn((1, hidden), generator=g) * 0.1 + 1.0
bnbias = torch.randn((1, hidden), generator=g) * 0.1
parameters = [C, W1, b1, W2, b2, bngain, bnbias]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
print(C[:2, :4])

# %% a batch
Xb = torch.randint(0, vocab, (n, block), generator=g)
Yb = torch.randint(0, vocab, (n,), generator=g)
print(Xb[:3], Yb[:8])

# %% the forward pass, chunked into small steps
emb = C[Xb]
embcat = emb.view(emb.shape[0], -1)
hprebn = embcat @ W1 + b1
bnmeani = 1 / n * hprebn.sum(0, keepdim=True)
bndiff = hprebn - bnmeani
bndiff2 = bndiff ** 2
bnvar = 1 / (n - 1) * (bndiff2).sum(0, keepdim=True)
bnvar_inv = (bnvar + 1e-5) ** -0.5
bnraw = bndiff * bnvar_inv
hpreact = bngain * bnraw + bnbias
h = torch.tanh(hpreact)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum ** -1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
for p in parameters:
    p.grad = None
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes, logits, h, hpreact,
          bnraw, bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani, embcat, emb]:
    t.retain_grad()
loss.backward()
print(f"{loss.item():.4f}", emb.shape, embcat.shape, hpreact.shape)

# %% gradients by hand, compared with autograd's
def cmp(name, dt, t):
    exact = torch.all(dt == t.grad).item()
    approx = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f"{name:15s} | exact: {str(exact):5s} | approximate: {str(approx):5s} | small diff: {maxdiff < 1e-6}")

dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum ** -2) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
cmp("logprobs", dlogprobs, logprobs)
cmp("probs", dprobs, probs)
cmp("counts_sum_inv", dcounts_sum_inv, counts_sum_inv)
cmp("counts", dcounts, counts)
cmp("logits", dlogits, logits)
cmp("h", dh, h)
cmp("W2", dW2, W2)
cmp("b2", db2, b2)

# %% the fused loss and its gradient
loss_fast = F.cross_entropy(logits, Yb)
print(f"{(loss_fast - loss).abs().item() < 1e-6}")
dlogits = F.softmax(logits, 1)
dlogits[range(n), Yb] -= 1
dlogits /= n
print(torch.allclose(dlogits, logits.grad, atol=1e-7), dlogits.shape)

# A lecture-notebook-style sequence: a tiny network written out op by op, every
# intermediate kept with retain_grad(), then backpropagated by hand and compared
# with what autograd put in .grad.
import torch

# %% data and parameters (literal numbers, no random generator)
Xb = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5], [-1.0, 1.0, 1.0], [0.0, 2.0, -1.5]])
Yb = torch.tensor([2, 0, 1, 2])
W1 = torch.tensor([[0.1, -0.2, 0.3, 0.0], [0.5, 0.4, -0.1, 0.2], [-0.3, 0.1, 0.2, -0.4]], requires_grad=True)
b1 = torch.tensor([0.01, -0.02, 0.03, 0.0], requires_grad=True)
W2 = torch.tensor([[0.2, -0.1, 0.0], [0.3, 0.1, -0.2], [-0.1, 0.4, 0.1], [0.0, -0.3, 0.2]], requires_grad=True)
b2 = torch.tensor([0.0, 0.1, -0.1], requires_grad=True)
parameters = [W1, b1, W2, b2]
n = Xb.shape[0]
print(sum(p.nelement() for p in parameters), n)

# %% forward pass, chunked into small steps
hprebn = Xb @ W1 + b1
h = torch.tanh(hprebn)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
counts_sum_inv = counts_sum**-1
probs = counts * counts_sum_inv
logprobs = probs.log()
loss = -logprobs[range(n), Yb].mean()
for p in parameters:
    p.grad = None
for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, norm_logits, logit_maxes, logits, h, hprebn]:
    t.retain_grad()
loss.backward()
print(loss)


# %% a helper that compares a manual gradient with autograd's
# (Not bit for bit: PyTorch's fused kernels, e.g. tanh's backward, may round the last bit
# differently from the same formula written out, and so may minigrad's.)
def cmp(s, dt, t):
    app = torch.allclose(dt, t.grad)
    maxdiff = (dt - t.grad).abs().max().item()
    print(f"{s:15s} | approximate: {str(app):5s} | maxdiff below 1e-7: {maxdiff < 1e-7}")


# %% backprop by hand, step by step
dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Yb] = -1.0 / n
dprobs = (1.0 / probs) * dlogprobs
dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
dcounts = counts_sum_inv * dprobs
dcounts_sum = (-counts_sum**-2) * dcounts_sum_inv
dcounts += torch.ones_like(counts) * dcounts_sum
dnorm_logits = counts * dcounts
dlogits = dnorm_logits.clone()
dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
dlogits += torch.nn.functional.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
dh = dlogits @ W2.T
dW2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhprebn = (1.0 - h**2) * dh
dW1 = Xb.T @ dhprebn
db1 = dhprebn.sum(0)
cmp("logprobs", dlogprobs, logprobs)
cmp("probs", dprobs, probs)
cmp("counts_sum_inv", dcounts_sum_inv, counts_sum_inv)
cmp("counts_sum", dcounts_sum, counts_sum)
cmp("counts", dcounts, counts)
cmp("norm_logits", dnorm_logits, norm_logits)
cmp("logit_maxes", dlogit_maxes, logit_maxes)
cmp("logits", dlogits, logits)
cmp("h", dh, h)
cmp("W2", dW2, W2)
cmp("b2", db2, b2)
cmp("hprebn", dhprebn, hprebn)
cmp("W1", dW1, W1)
cmp("b1", db1, b1)

# %% the gradient of logit_maxes is (almost) zero
print(logit_maxes.grad.abs().max().item() < 1e-6)

# %% the whole cross-entropy at once
loss_fast = torch.nn.functional.cross_entropy(logits, Yb)
print(loss_fast.item() - loss.item() < 1e-6)
dlogits_fast = torch.nn.functional.softmax(logits, 1)
dlogits_fast[range(n), Yb] -= 1
dlogits_fast /= n
cmp("logits (fast)", dlogits_fast, logits)

# %% grads of tensors that were not retained
print(counts_sum_inv.retains_grad, Xb.grad, Xb.requires_grad)

# %% an update step under no_grad, then the grads are cleared
lr = 0.1
with torch.no_grad():
    for p in parameters:
        p += -lr * p.grad
for p in parameters:
    p.grad = None
print(W2[0], b2)

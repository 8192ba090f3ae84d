# A lecture notebook in the style of "let's build a GPT": a character-level language model on a tiny
# text, the matrix trick behind self-attention, one head of attention, then a small model trained
# for a few steps with AdamW. Every tensor is seeded; numbers are printed to 4 decimals.
import torch
import torch.nn as nn
from torch.nn import functional as F

text = "first citizen: before we proceed any further, hear me speak. all: speak, speak. " * 4
chars = sorted(list(set(text)))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda l: "".join([itos[i] for i in l])
print(vocab_size, "".join(chars))

# %% encode the text and split it
data = torch.tensor(encode(text), dtype=torch.long)
print(data.shape, data.dtype)
print(data[:20])
n = int(0.9 * len(data))
train_data, val_data = data[:n], data[n:]
print(len(train_data), len(val_data))

# %% a batch of contexts and targets
torch.manual_seed(1337)
block_size, batch_size = 8, 4


def get_batch(split):
    d = train_data if split == "train" else val_data
    ix = torch.randint(len(d) - block_size, (batch_size,))
    x = torch.stack([d[i:i + block_size] for i in ix])
    y = torch.stack([d[i + 1:i + block_size + 1] for i in ix])
    return x, y


xb, yb = get_batch("train")
print(xb.shape, yb.shape)
print(xb)
for t in range(3):
    context = xb[0, :t + 1]
    target = yb[0, t]
    print(f"when input is {context.tolist()} the target: {target}")

# %% the mathematical trick: averages of the past, three ways
torch.manual_seed(1337)
B, T, C = 4, 8, 2
x = torch.randn(B, T, C)
xbow = torch.zeros((B, T, C))
for b in range(B):
    for t in range(T):
        xprev = x[b, :t + 1]
        xbow[b, t] = torch.mean(xprev, 0)
wei = torch.tril(torch.ones(T, T))
wei = wei / wei.sum(1, keepdim=True)
xbow2 = wei @ x
tril = torch.tril(torch.ones(T, T))
wei = torch.zeros((T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
wei = F.softmax(wei, dim=-1)
xbow3 = wei @ x
# (Checked to a tolerance above float32's rounding: a loop of means and a matrix product sum in
# different orders, and each library orders its sums its own way.)
print(torch.allclose(xbow, xbow2, atol=1e-6), torch.allclose(xbow, xbow3, atol=1e-6))
print(wei[:3, :3])

# %% one head of self-attention
torch.manual_seed(1337)
B, T, C = 4, 8, 32
x = torch.randn(B, T, C)
head_size = 16
key = nn.Linear(C, head_size, bias=False)
query = nn.Linear(C, head_size, bias=False)
value = nn.Linear(C, head_size, bias=False)
k, q = key(x), query(x)
wei = q @ k.transpose(-2, -1) * head_size ** -0.5
tril = torch.tril(torch.ones(T, T))
wei = wei.masked_fill(tril == 0, float("-inf"))
wei = F.softmax(wei, dim=-1)
out = wei @ value(x)
print(out.shape)
print(wei[0, :3, :3])
print(k.var().item() > 0, q.var().item() > 0, wei.grad_fn)

# %% scaled attention keeps softmax diffuse
torch.manual_seed(1337)
print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]), dim=-1))
print(torch.softmax(torch.tensor([0.1, -0.2, 0.3, -0.2, 0.5]) * 8, dim=-1))

# %% the model
torch.manual_seed(1337)
n_embd, n_head, n_layer, dropout = 16, 2, 1, 0.0


class Head(nn.Module):
    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        wei = self.dropout(wei)
        return wei @ self.value(x)


class MultiHeadAttention(nn.Module):
    def __init__(self, num_heads, head_size):
        super().__init__()
        self.heads = nn.ModuleList([Head(head_size) for _ in range(num_heads)])
        self.proj = nn.Linear(head_size * num_heads, n_embd)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        out = torch.cat([h(x) for h in self.heads], dim=-1)
        return self.dropout(self.proj(out))


class FeedFoward(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd),
                                 nn.Dropout(dropout))

    def forward(self, x):
        return self.net(x)


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        head_size = n_embd // n_head
        self.sa = MultiHeadAttention(n_head, head_size)
        self.ffwd = FeedFoward(n_embd)
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        x = x + self.ffwd(self.ln2(x))
        return x


class GPTLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block(n_embd, n_head=n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)
        self.apply(self._init_weights)

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        tok_emb = self.token_embedding_table(idx)
        pos_emb = self.position_embedding_table(torch.arange(T))
        x = tok_emb + pos_emb
        x = self.blocks(x)
        x = self.ln_f(x)
        logits = self.lm_head(x)
        if targets is None:
            loss = None
        else:
            B, T, C = logits.shape
            logits = logits.view(B * T, C)
            targets = targets.view(B * T)
            loss = F.cross_entropy(logits, targets)
        return logits, loss

    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            idx_cond = idx[:, -block_size:]
            logits, loss = self(idx_cond)
            logits = logits[:, -1, :]
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx


model = GPTLanguageModel()
print(sum(p.numel() for p in model.parameters()), "parameters")
logits, loss = model(xb, yb)
print(logits.shape, f"{loss.item():.4f}")

# %% train a few steps
torch.manual_seed(1337)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(5):
    xb, yb = get_batch("train")
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    print(step, f"{loss.item():.4f}")


# %% estimate the loss without recording
@torch.no_grad()
def estimate_loss():
    out = {}
    model.eval()
    for split in ["train", "val"]:
        losses = torch.zeros(3)
        for k in range(3):
            X, Y = get_batch(split)
            logits, loss = model(X, Y)
            losses[k] = loss.item()
        out[split] = losses.mean()
    model.train()
    return out


torch.manual_seed(1337)
losses = estimate_loss()
print(f"train loss {losses['train']:.4f}, val loss {losses['val']:.4f}")

# %% generate
torch.manual_seed(1337)
context = torch.zeros((1, 1), dtype=torch.long)
print(decode(model.generate(context, max_new_tokens=20)[0].tolist()))

# %% the gradient of one attention weight matrix, and its norm
torch.manual_seed(1337)
xb, yb = get_batch("val")
model.zero_grad()
logits, loss = model(xb, yb)
loss.backward()
g = model.blocks[0].sa.heads[0].query.weight.grad
print(g.shape, f"{g.norm().item():.6f}")
print(model.lm_head.bias.grad[:5])

# %% mistake: cross_entropy on (B, T, C) logits without flattening
torch.manual_seed(1337)
logits = torch.randn(4, 8, 65)
targets = torch.randint(65, (4, 8))
F.cross_entropy(logits, targets)

# %% mistake: view of a transposed tensor
k = torch.randn(4, 8, 16)
k.transpose(-2, -1).view(4, -1)

# %% mistake: a float mask
wei = torch.zeros(8, 8)
wei.masked_fill(torch.tril(torch.ones(8, 8)), float("-inf"))

# %% mistake: softmax without dim
print(F.softmax(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))

# %% mistake: item of many numbers
torch.randn(4, 8).mean(0).item()

# %% mistake: cat of mismatched heads
torch.cat([torch.randn(4, 8, 8), torch.randn(4, 7, 8)], dim=-1)

# %% mistake: embedding index out of range
emb = nn.Embedding(10, 4)
emb(torch.tensor([[1, 2, 10]]))

# %% mistake: matmul of mismatched shapes
torch.randn(4, 8, 16) @ torch.randn(4, 8, 16)

# %% mistake: multinomial of a row with no positive probability
torch.multinomial(torch.zeros(5), 1)

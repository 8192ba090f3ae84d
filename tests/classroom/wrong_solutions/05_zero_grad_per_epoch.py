# Assignment 5 with zero_grad called once per epoch instead of once per step: right when an epoch is
# one batch, wrong (gradients pile up) when it has several.

# %% train
def train(model, X, y, epochs, lr, batch_size, seed=0):
    rng = np.random.default_rng(seed)
    losses = []
    for _ in range(epochs):
        zero_grad(model.parameters())
        shuffled = rng.permutation(len(X))
        for start in range(0, len(X), batch_size):
            batch = shuffled[start:start + batch_size]
            loss = F.cross_entropy(model(minigrad.tensor(X[batch])), minigrad.tensor(y[batch]))
            loss.backward()
            sgd_step(model.parameters(), lr)
            losses.append(loss.item())
    return losses

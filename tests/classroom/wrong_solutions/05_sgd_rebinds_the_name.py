# Assignment 5 with sgd_step computing the new value into the loop variable (`p = p - lr * p.grad`),
# which changes nothing in the model.

# %% sgd
def sgd_step(parameters, lr):
    with minigrad.no_grad():
        for p in parameters:
            if p.grad is not None:
                p = p - lr * p.grad


def zero_grad(parameters):
    for p in parameters:
        p.grad = None

"""Reptile on 1-D sine-wave regression."""
import copy

import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

seed = 0
plot = True
inner_stepsize = 0.02
innerepochs = 1
outerstepsize0 = 0.1
niterations = 30000
ntrain = 10

rng = np.random.RandomState(seed)
torch.manual_seed(seed)

x_all = np.linspace(-5, 5, 50)[:, None]


def gen_task():
    phase = rng.uniform(low=0, high=2 * np.pi)
    ampl = rng.uniform(0.1, 5)
    return lambda x: np.sin(x + phase) * ampl


model = nn.Sequential(
    nn.Linear(1, 64),
    nn.Tanh(),
    nn.Linear(64, 64),
    nn.Tanh(),
    nn.Linear(64, 1),
)


def to_tensor(x):
    return torch.tensor(x, dtype=torch.float32)


def train_on_batch(x, y):
    x, y = to_tensor(x), to_tensor(y)
    model.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    for param in model.parameters():
        param.data -= inner_stepsize * param.grad.data


def predict(x):
    with torch.no_grad():
        return model(to_tensor(x)).numpy()


f_plot = gen_task()
xtrain_plot = x_all[rng.choice(len(x_all), size=ntrain)]

for iteration in range(niterations):
    weights_before = {k: v.detach() for k, v in model.state_dict().items()}  # expect: TEN402
    f = gen_task()
    y_all = f(x_all)
    inds = rng.permutation(len(x_all))
    for _ in range(innerepochs):
        for start in range(0, len(x_all), ntrain):
            mbinds = inds[start:start + ntrain]
            train_on_batch(x_all[mbinds], y_all[mbinds])

    weights_after = model.state_dict()  # ok
    outerstepsize = outerstepsize0 * (1 - iteration / niterations)
    model.load_state_dict({
        name: weights_before[name] + (weights_after[name] - weights_before[name]) * outerstepsize
        for name in weights_before
    })

    if plot and (iteration == 0 or (iteration + 1) % 1000 == 0):
        plt.cla()
        f = f_plot
        weights_before_eval = copy.deepcopy(model.state_dict())  # ok
        plt.plot(x_all, predict(x_all), label="pred after 0", color=(0, 0, 1))
        for inneriter in range(32):
            train_on_batch(xtrain_plot, f(xtrain_plot))
            if (inneriter + 1) % 8 == 0:
                frac = (inneriter + 1) / 32
                plt.plot(x_all, predict(x_all), label=f"pred after {inneriter + 1}", color=(frac, 0, 1 - frac))
        plt.plot(x_all, f(x_all), label="true", color=(0, 1, 0))
        lossval = np.square(predict(x_all) - f(x_all)).mean()
        plt.plot(xtrain_plot, f(xtrain_plot), "x", label="train", color="k")
        plt.ylim(-4, 4)
        plt.legend(loc="lower right")
        plt.pause(0.01)
        model.load_state_dict(weights_before_eval)
        print("-----------------------------")
        print(f"iteration               {iteration + 1}")
        print(f"loss on plotted curve   {lossval:.3f}")

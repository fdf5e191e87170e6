"""DQN agent pieces: an Atari-style frame stack and a target network used through
torch.func.functional_call, on a tiny fake environment."""
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
torch.set_num_threads(1)

K, H, W = 4, 6, 6


class FrameStack:
    """frames[-1] is the newest frame; stack shape (K, H, W)."""

    def __init__(self, safe=False):
        self.frames = torch.zeros(K, H, W)
        self.safe = safe

    def push(self, frame):
        if self.safe:
            self.frames = torch.cat([self.frames[1:], frame.unsqueeze(0)])  # ok
        else:
            self.frames[:-1] = self.frames[1:]  # expect: TEN403
            self.frames[-1] = frame
        return self.frames


class VecFrameStack:
    """Batched version for N parallel envs, like VecPyTorchFrameStack: (N, K, H, W), newest last."""

    def __init__(self, n_envs):
        self.stacked = torch.zeros(n_envs, K, H, W)

    def push(self, obs):
        self.stacked[:, :-1] = self.stacked[:, 1:]  # either: TEN403
        self.stacked[:, -1] = obs
        return self.stacked


class ColorFrameStack:
    """RGB frames stacked along channels for a single env: (1, K * c, H, W), newest channels last."""

    def __init__(self, c=3):
        self.c = c
        self.obs = torch.zeros(1, K * c, H, W)

    def push(self, rgb):
        try:
            self.obs[:, :-self.c] = self.obs[:, self.c:]  # expect: TEN403
        except RuntimeError as e:
            print("ColorFrameStack.push:", str(e).split(".")[0])
        self.obs[:, -self.c:] = rgb
        return self.obs


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(K * H * W, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.net(x)


class Agent:
    def __init__(self, clone_target, gamma=0.9, sync_every=50):
        self.q = QNet()
        self.opt = torch.optim.SGD(self.q.parameters(), lr=0.05)
        self.gamma, self.sync_every, self.clone_target = gamma, sync_every, clone_target
        self.steps = 0
        self.sync()

    def sync(self):
        if self.clone_target:
            self.target_params = {k: v.detach().clone() for k, v in self.q.named_parameters()}  # ok
        else:
            self.target_params = {k: v.detach() for k, v in self.q.named_parameters()}  # expect: TEN402

    def learn(self, s, a, r, s2):
        with torch.no_grad():
            target = r + self.gamma * functional_call(self.q, self.target_params, (s2,)).max(1).values
        q = self.q(s).gather(1, a.unsqueeze(1)).squeeze(1)
        loss = (q - target).pow(2).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.steps += 1
        if self.steps % self.sync_every == 0:
            self.sync()
        return loss.item()


def frame(t):
    return torch.full((H, W), float(t))


if __name__ == "__main__":
    for safe in (False, True):
        fs = FrameStack(safe=safe)
        try:
            for t in range(1, 7):
                obs = fs.push(frame(t))
            print(f"FrameStack safe={safe}: frame ids = {obs[:, 0, 0].tolist()}")
        except RuntimeError as e:
            print(f"FrameStack safe={safe}: RuntimeError: {str(e).split('.')[0]}")
    cfs = ColorFrameStack()
    for t in range(1, 7):
        obs = cfs.push(torch.stack([frame(t), frame(10 * t), frame(100 * t)]))
    print(f"ColorFrameStack: channel ids = {obs[0, :, 0, 0].tolist()}")
    vfs = VecFrameStack(n_envs=2)
    for t in range(1, 7):
        obs = vfs.push(torch.stack([frame(t), frame(-t)]))
    print(f"VecFrameStack: env0 frame ids = {obs[0, :, 0, 0].tolist()} env1 = {obs[1, :, 0, 0].tolist()}")

    g = torch.Generator().manual_seed(0)
    s = torch.rand(32, K, H, W, generator=g)
    s2 = torch.rand(32, K, H, W, generator=g)
    a = torch.randint(0, 3, (32,), generator=g)
    r = torch.rand(32, generator=g)
    for clone_target in (False, True):
        torch.manual_seed(0)
        ag = Agent(clone_target)
        losses = [ag.learn(s, a, r, s2) for _ in range(120)]
        print(f"DQN clone_target={clone_target}: td loss @40={losses[40]:.5f} @119={losses[119]:.5f}")

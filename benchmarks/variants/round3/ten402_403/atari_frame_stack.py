"""Atari preprocessing + GPU-side frame stacking for a DQN actor."""
import gym
import numpy as np
import torch
import torch.nn.functional as F


def preprocess(frame, device):
    """RGB uint8 (210, 160, 3) -> float (84, 84) in [0, 1]."""
    x = torch.from_numpy(np.ascontiguousarray(frame)).to(device)
    x = x.permute(2, 0, 1).float().mean(0, keepdim=True)  # grayscale
    x = F.interpolate(x[None], size=(84, 84), mode="bilinear", align_corners=False)[0, 0]
    return x / 255.0


class FrameStack:
    """Keeps the last k preprocessed frames, oldest first."""

    def __init__(self, k=4, device="cuda"):
        self.k = k
        self.device = device
        self.frames = torch.zeros(k, 84, 84, device=device)

    def reset(self, obs):
        f = preprocess(obs, self.device)
        self.frames[:] = f
        return self.frames

    def push(self, obs):
        f = preprocess(obs, self.device)
        self.frames[:-1] = self.frames[1:]  # expect: TEN403
        self.frames[-1] = f
        return self.frames


class EpsilonGreedyActor:
    def __init__(self, q_net, n_actions, eps_start=1.0, eps_end=0.05, decay_steps=250_000):
        self.q_net = q_net
        self.n_actions = n_actions
        self.eps_start, self.eps_end, self.decay_steps = eps_start, eps_end, decay_steps
        self.steps = 0

    def epsilon(self):
        frac = min(1.0, self.steps / self.decay_steps)
        return self.eps_start + frac * (self.eps_end - self.eps_start)

    @torch.no_grad()
    def act(self, state):
        self.steps += 1
        if np.random.rand() < self.epsilon():
            return np.random.randint(self.n_actions)
        return int(self.q_net(state.unsqueeze(0)).argmax(1).item())


def run_episode(env_id, q_net, replay, device="cuda", max_steps=27_000):
    env = gym.make(env_id)
    stack = FrameStack(4, device)
    actor = EpsilonGreedyActor(q_net, env.action_space.n)
    obs, _ = env.reset()
    state = stack.reset(obs).clone()
    ep_return = 0.0
    for _ in range(max_steps):
        action = actor.act(state)
        obs, reward, terminated, truncated, _ = env.step(action)
        next_state = stack.push(obs).clone()
        replay.add(state.cpu(), action, float(np.sign(reward)), next_state.cpu(), terminated)
        state = next_state
        ep_return += reward
        if terminated or truncated:
            break
    env.close()
    return ep_return

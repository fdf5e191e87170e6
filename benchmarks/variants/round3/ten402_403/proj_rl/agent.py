"""n-step DQN agent for vector-observation envs (uses replay.py)."""
import gym
import torch
import torch.nn as nn
import torch.nn.functional as F

from replay import NStepAccumulator, ReplayMemory


class QNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, n_actions))

    def forward(self, x):
        return self.net(x)


class DQNAgent:
    def __init__(self, obs_dim, n_actions, n_stack=4, n_step=5, gamma=0.99, device="cuda"):
        self.device = device
        self.n_actions = n_actions
        self.gamma = gamma
        self.n_step = n_step
        self.n_stack = n_stack
        in_dim = obs_dim * n_stack
        self.q = QNet(in_dim, n_actions).to(device)
        self.target_q = QNet(in_dim, n_actions).to(device)
        self.target_q.load_state_dict(self.q.state_dict())
        self.target_q.requires_grad_(False)
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-4)
        self.memory = ReplayMemory(200_000, (in_dim,), device)
        self.nstep = NStepAccumulator(n_step, gamma, (in_dim,), device)
        self.stack = torch.zeros(n_stack, obs_dim, device=device)
        self.updates = 0

    def observe(self, obs, reset=False):
        obs = torch.as_tensor(obs, dtype=torch.float32, device=self.device)
        if reset:
            self.stack = obs.expand(self.n_stack, -1).clone()
        else:
            self.stack = torch.cat([self.stack[1:], obs[None]], dim=0)
        return self.stack.flatten()

    @torch.no_grad()
    def act(self, state, eps):
        if torch.rand(()) < eps:
            return int(torch.randint(self.n_actions, ()))
        return int(self.q(state[None]).argmax(1))

    def learn(self, batch_size=64):
        obs, actions, returns, next_obs, dones = self.memory.sample(batch_size)
        with torch.no_grad():
            next_a = self.q(next_obs).argmax(1, keepdim=True)
            next_q = self.target_q(next_obs).gather(1, next_a).squeeze(1)
            target = returns + (self.gamma ** self.n_step) * (1 - dones) * next_q
        q = self.q(obs).gather(1, actions[:, None]).squeeze(1)
        loss = F.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.q.parameters(), 10.0)
        self.opt.step()
        self.updates += 1
        if self.updates % 2000 == 0:
            self.target_q.load_state_dict(self.q.state_dict())
        return loss.item()


def train(env_id="LunarLander-v2", total_steps=300_000, device="cuda"):
    env = gym.make(env_id)
    agent = DQNAgent(env.observation_space.shape[0], env.action_space.n, device=device)
    obs, _ = env.reset()
    state = agent.observe(obs, reset=True)
    for t in range(total_steps):
        eps = max(0.02, 1.0 - t / 50_000)
        a = agent.act(state, eps)
        obs, r, term, trunc, _ = env.step(a)
        next_state = agent.observe(obs)
        agent.nstep.push(state, a, r, term)
        if agent.nstep.ready():
            o0, a0, ret, done = agent.nstep.pop_transition()
            agent.memory.add(o0, a0, ret, next_state, done)
        state = next_state
        if term or trunc:
            obs, _ = env.reset()
            state = agent.observe(obs, reset=True)
            agent.nstep.reset()
        if len(agent.memory) > 10_000:
            agent.learn()
    torch.save(agent.q.state_dict(), f"dqn_{env_id}.pt")

"""cleanrl-flavoured PPO on a toy vectorised environment."""
import torch
import torch.nn as nn
from torch.distributions.categorical import Categorical


class ToyVecEnv:
    """num_envs independent random-walk environments with 4-dim observations."""

    def __init__(self, num_envs=4, obs_dim=4, n_actions=2, horizon=20, seed=0):
        self.num_envs, self.obs_dim, self.n_actions, self.horizon = num_envs, obs_dim, n_actions, horizon
        self.g = torch.Generator().manual_seed(seed)
        self.t = torch.zeros(num_envs, dtype=torch.long)
        self.state = torch.zeros(num_envs, obs_dim)

    def reset(self):
        self.state = torch.randn(self.num_envs, self.obs_dim, generator=self.g)
        self.t.zero_()
        return self.state.clone()

    def step(self, action):
        direction = action.float() * 2 - 1
        self.state = self.state + 0.1 * direction.unsqueeze(1) + 0.05 * torch.randn(
            self.num_envs, self.obs_dim, generator=self.g)
        reward = -self.state.pow(2).mean(1)
        self.t += 1
        done = self.t >= self.horizon
        if done.any():
            self.state[done] = torch.randn(int(done.sum()), self.obs_dim, generator=self.g)
            self.t[done] = 0
        return self.state.clone(), reward, done.float()


def layer_init(layer, std=2 ** 0.5, bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.critic = nn.Sequential(layer_init(nn.Linear(obs_dim, 32)), nn.Tanh(),
                                    layer_init(nn.Linear(32, 1), std=1.0))
        self.actor = nn.Sequential(layer_init(nn.Linear(obs_dim, 32)), nn.Tanh(),
                                   layer_init(nn.Linear(32, n_actions), std=0.01))

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


def main(num_steps=16, num_envs=4, total_timesteps=256, update_epochs=2, num_minibatches=4):
    torch.manual_seed(1)
    gamma, gae_lambda, clip_coef, ent_coef, vf_coef = 0.99, 0.95, 0.2, 0.01, 0.5
    envs = ToyVecEnv(num_envs=num_envs)
    agent = Agent(envs.obs_dim, envs.n_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)

    obs = torch.zeros((num_steps, num_envs, envs.obs_dim))
    actions = torch.zeros((num_steps, num_envs))
    logprobs = torch.zeros((num_steps, num_envs))
    rewards = torch.zeros((num_steps, num_envs))
    dones = torch.zeros((num_steps, num_envs))
    values = torch.zeros((num_steps, num_envs))

    batch_size = num_envs * num_steps
    minibatch_size = batch_size // num_minibatches
    num_updates = total_timesteps // batch_size

    next_obs = envs.reset()
    next_done = torch.zeros(num_envs)
    pg_losses, v_losses, entropies, clipfracs, approx_kls = [], [], [], [], []

    for update in range(1, num_updates + 1):
        for step in range(num_steps):
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
                values[step] = value.flatten()  # ok
            actions[step] = action
            logprobs[step] = logprob
            next_obs, reward, next_done = envs.step(action)
            rewards[step] = reward

        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            lastgaelam = 0
            for t in reversed(range(num_steps)):
                if t == num_steps - 1:
                    nextnonterminal = 1.0 - next_done
                    nextvalues = next_value
                else:
                    nextnonterminal = 1.0 - dones[t + 1]
                    nextvalues = values[t + 1]
                delta = rewards[t] + gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + gamma * gae_lambda * nextnonterminal * lastgaelam
            returns = advantages + values

        b_obs = obs.reshape((-1, envs.obs_dim))
        b_logprobs = logprobs.reshape(-1)
        b_actions = actions.reshape(-1)
        b_advantages = advantages.reshape(-1)
        b_returns = returns.reshape(-1)

        b_inds = torch.arange(batch_size)
        for epoch in range(update_epochs):
            b_inds = b_inds[torch.randperm(batch_size)]
            for start in range(0, batch_size, minibatch_size):
                mb_inds = b_inds[start:start + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb_inds], b_actions.long()[mb_inds])
                logratio = newlogprob - b_logprobs[mb_inds]
                ratio = logratio.exp()

                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs += [((ratio - 1.0).abs() > clip_coef).float().mean().item()]  # ok
                approx_kls.append(approx_kl)  # ok

                mb_advantages = b_advantages[mb_inds]
                mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)
                pg_loss1 = -mb_advantages * ratio
                pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)
                pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                newvalue = newvalue.view(-1)
                v_loss = 0.5 * ((newvalue - b_returns[mb_inds]) ** 2).mean()
                entropy_loss = entropy.mean()
                loss = pg_loss - ent_coef * entropy_loss + v_loss * vf_coef

                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()

                pg_losses.append(pg_loss)  # expect: TEN501
                v_losses.append(v_loss.item())  # ok
                entropies.append(entropy_loss)  # expect: TEN501

        print(f"update {update}: pg={pg_losses[-1].item():.4f} v={v_losses[-1]:.4f} "
              f"ent={entropies[-1].item():.4f} kl={approx_kls[-1].item():.5f} "
              f"clipfrac={sum(clipfracs) / len(clipfracs):.3f}")


if __name__ == "__main__":
    main()

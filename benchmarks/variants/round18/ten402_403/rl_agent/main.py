import torch

from rl_agent import Agent, CatFrameStacker, FrameStacker

torch.manual_seed(0)
torch.set_num_threads(1)

N_ENVS, K, OBS, ACTIONS = 3, 4, 5, 2


def rollout(agent, stacker, steps=20, copy_behaviour=False):
    torch.manual_seed(1)
    state = stacker.add(torch.randn(N_ENVS, OBS), torch.zeros(N_ENVS, dtype=torch.long))
    if copy_behaviour:
        agent.remember_behaviour_copy()
    else:
        agent.remember_behaviour()
    losses = []
    for _ in range(steps):
        action = agent.act(state)
        obs = torch.randn(N_ENVS, OBS)
        nxt = stacker.add(obs, action)
        reward = obs[:, 0]
        losses.append(agent.learn(state, action, reward, nxt))
        state = nxt
    return sum(losses) / len(losses), agent.policy_drift()


if __name__ == "__main__":
    for target, stacker_cls, copy_b in (("frozen", FrameStacker, False), ("cloned", CatFrameStacker, True)):
        torch.manual_seed(0)
        agent = Agent(K * OBS, ACTIONS, target=target)
        loss, drift = rollout(agent, stacker_cls(N_ENVS, K, OBS), copy_behaviour=copy_b)
        print(target, stacker_cls.__name__, "mean loss", round(loss, 4), "policy drift", round(drift, 4))

import torch

from .agent import ActorCriticAgent
from .buffer import StatsRecorder
from .env import GridWorld

torch.manual_seed(0)


def main():
    env, eval_env = GridWorld(seed=0), GridWorld(seed=1)
    agent = ActorCriticAgent()
    stats, eval_stats = StatsRecorder(), StatsRecorder()
    for episode in range(12):
        obs, ep_return, done = env.reset(), 0.0, False
        while not done:
            action = agent.act(obs)
            obs, reward, done = env.step(action)
            agent.observe(reward)
            ep_return += reward
        loss = agent.finish_episode()
        stats.add_episode(ep_return, loss)  # expect: TEN501

        if episode % 4 == 3:
            greedy_return, mean_value = agent.evaluate(eval_env)
            eval_stats.add_episode(greedy_return, mean_value)  # ok
            print(f"episode {episode + 1}: recent return {stats.recent_mean():.3f} "
                  f"greedy {greedy_return:.3f} V {mean_value.item():.3f}")


if __name__ == "__main__":
    main()

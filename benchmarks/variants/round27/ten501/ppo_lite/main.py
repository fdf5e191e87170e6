"""python -m ppo_lite.main"""
import torch

torch.manual_seed(0)

from .agent import PPOAgent
from .env import PointEnv
from .logger import EpochLogger


def discounted(rews, gamma=0.95):
    out, run = [], 0.0
    for r in reversed(rews.tolist()):
        run = r + gamma * run
        out.append(run)
    return torch.tensor(out[::-1])


def main():
    logger = EpochLogger()
    raw_logger = EpochLogger()
    agent = PPOAgent(logger)
    env = PointEnv()
    for epoch in range(5):
        obs, act, rew, logp = agent.collect(env)
        loss_pi, loss_v = agent.update(obs, act, discounted(rew), logp)
        raw_logger.store(LossPi=loss_pi, LossV=loss_v)  # expect: TEN501
        logger.store(EpRet=rew.sum().item())  # ok
    print("pi", round(logger.mean("LossPi"), 4), "v", round(logger.mean("LossV"), 4), "ret", round(logger.mean("EpRet"), 3))
    print("raw", round(raw_logger.mean("LossV"), 4), "kl", round(float(agent.kl_history[-1]), 5), len(agent.value_trace))


if __name__ == "__main__":
    main()

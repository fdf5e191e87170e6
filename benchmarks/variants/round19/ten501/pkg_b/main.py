import collections
import torch

from . import stats
from .agent import ActorCritic, learn
from .buffers import EpisodeBuffer, TrajectoryArchive


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = ActorCritic()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    buf, archive, archive_ok = EpisodeBuffer(), TrajectoryArchive(), TrajectoryArchive()
    ep_store = collections.defaultdict(list)
    on_episode_end = stats.make_episode_hook(ep_store)
    actor_losses, actor_loss_vals = [], []
    for episode in range(4):
        s = torch.randn(4)
        for t in range(6):
            dist, v = model(s)
            a = dist.sample()
            buf.add(dist.log_prob(a), v, float(a.item() == t % 2))  # ok
            s = torch.randn(4)
        archive.save({"log_probs": list(buf.log_probs), "rewards": list(buf.rewards)})  # expect: TEN501
        archive_ok.save({"log_probs": [lp.item() for lp in buf.log_probs], "rewards": list(buf.rewards)})  # ok
        actor_loss, info = learn(model, opt, buf)
        buf.clear()
        stats.log_stats("train", info)  # expect: TEN501
        stats.log_stats("train_scalar", {k: v.item() for k, v in info.items()})  # ok
        on_episode_end(actor=actor_loss, length=6)  # expect: TEN501
        on_episode_end(actor_value=actor_loss.item(), critic_value=info["critic"].item())  # ok
        actor_losses.append(actor_loss)  # expect: TEN501
        actor_loss_vals.append(actor_loss.item())  # ok
    print(len(archive.trajectories), len(stats.GLOBAL_STATS["train/critic"]), float(sum(ep_store["actor"])),
          sum(ep_store["actor_value"]), float(sum(actor_losses)), sum(actor_loss_vals), len(archive_ok.trajectories))


if __name__ == "__main__":
    main()

import collections

GLOBAL_STATS = collections.defaultdict(list)


def make_episode_hook(store):
    def on_episode_end(**info):
        for k, v in info.items():
            store[k].append(v)
    return on_episode_end


def log_stats(prefix, info):
    for k, v in info.items():
        GLOBAL_STATS[f"{prefix}/{k}"].append(v)

"""Successive halving over optimizer hyperparameters for a fixed architecture."""
import copy
import json
import random

import torch


def sample_configs(n, seed=0):
    rng = random.Random(seed)
    return [
        {
            "lr": 10 ** rng.uniform(-4.5, -2),
            "weight_decay": 10 ** rng.uniform(-6, -2),
            "warmup": rng.choice([0, 100, 500]),
            "label_smoothing": rng.choice([0.0, 0.05, 0.1]),
        }
        for _ in range(n)
    ]


def successive_halving(build_model, configs, train_fn, eval_fn, min_epochs=1, max_epochs=27, eta=3):
    """Returns (best_score, best_config, weights_of_best_run) from the last rung."""
    model = build_model()
    init_sd = copy.deepcopy(model.state_dict())  # ok
    survivors = list(configs)
    epochs = min_epochs
    while True:
        results = []
        for cfg in survivors:
            model.load_state_dict(init_sd)
            train_fn(model, cfg, epochs)
            score = eval_fn(model)
            results.append((score, cfg, model.state_dict()))  # expect: TEN402
            print(f"[{epochs} ep] {json.dumps(cfg)} -> {score:.4f}")
        results.sort(key=lambda r: r[0], reverse=True)
        keep = len(results) // eta
        if keep <= 1 or epochs * eta > max_epochs:
            break
        survivors = [cfg for _, cfg, _ in results[:keep]]
        epochs *= eta
    return results[0]


def main(build_model, train_fn, eval_fn, n_configs=27, out="hpo_best.pt"):
    best_score, best_cfg, best_weights = successive_halving(
        build_model, sample_configs(n_configs), train_fn, eval_fn
    )
    print(f"best: {best_cfg} ({best_score:.4f})")
    torch.save({"config": best_cfg, "score": best_score, "state_dict": best_weights}, out)

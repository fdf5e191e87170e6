"""Model soups (Wortsman et al., 2022): average fine-tuned weights instead of ensembling."""
import argparse
import json

import torch


def finetune_ingredients(model, base_ckpt, configs, train_fn):
    """Fine-tune ``model`` once per hyper-parameter config, each run starting from ``base_ckpt``."""
    base = torch.load(base_ckpt, map_location="cpu")
    ingredients = []
    for cfg in configs:
        model.load_state_dict(base)
        train_fn(model, **cfg)
        ingredients.append(model.state_dict())  # expect: TEN402
    return ingredients


def uniform_soup(state_dicts):
    n = len(state_dicts)
    soup = {}
    for k, v in state_dicts[0].items():
        if v.is_floating_point():
            soup[k] = sum(sd[k].float() for sd in state_dicts) / n
        else:
            soup[k] = v.clone()
    return soup


def greedy_soup(model, ckpt_paths, eval_fn, out_path=None):
    """Add ingredients in order of held-out score, keeping each one only if the soup improves."""
    scored = []
    for path in ckpt_paths:
        model.load_state_dict(torch.load(path, map_location="cpu"))
        scored.append((eval_fn(model), path))
    scored.sort(reverse=True)

    best_score, first = scored[0]
    soup = {k: v.float() if v.is_floating_point() else v for k, v in torch.load(first, map_location="cpu").items()}
    n = 1
    for _, path in scored[1:]:
        sd = torch.load(path, map_location="cpu")
        candidate = {
            k: (soup[k] * n + sd[k].float()) / (n + 1) if soup[k].is_floating_point() else soup[k]
            for k in soup
        }
        model.load_state_dict(candidate)
        score = eval_fn(model)
        if score >= best_score:
            soup, best_score, n = candidate, score, n + 1

    model.load_state_dict(soup)
    if out_path is not None:
        torch.save(model.state_dict(), out_path)  # ok
    return soup, best_score, n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--configs", required=True, help="JSON list of train_fn kwargs")
    ap.add_argument("--out", default="uniform_soup.pt")
    args = ap.parse_args()

    from finetune_recipes import build_model, evaluate, train  # project-local

    model = build_model().cuda()
    configs = json.load(open(args.configs))
    ingredients = finetune_ingredients(model, args.base, configs, train)
    soup = uniform_soup(ingredients)
    model.load_state_dict(soup)
    print("uniform soup accuracy:", evaluate(model))
    torch.save(soup, args.out)


if __name__ == "__main__":
    main()

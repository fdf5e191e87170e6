"""Model soups (Wortsman et al., 2022): uniform and greedy weight averaging of fine-tuned runs."""
import copy
import json

import torch


def finetune_ingredients(build_model, pretrained_path, configs, train_fn):
    """Fine-tune one model per hyperparameter config, all starting from the same checkpoint."""
    pretrained = torch.load(pretrained_path, map_location="cpu")
    model = build_model()
    ingredients = []
    for cfg in configs:
        model.load_state_dict(pretrained)
        train_fn(model, cfg)
        ingredients.append({k: v.detach().cpu().clone() for k, v in model.state_dict().items()})  # ok
    return ingredients


def average(state_dicts):
    out = {}
    for k, ref in state_dicts[0].items():
        if ref.is_floating_point():
            out[k] = torch.stack([sd[k] for sd in state_dicts]).mean(0)
        else:
            out[k] = ref.clone()
    return out


def evaluate_weights(model, weights, eval_fn):
    model.load_state_dict(weights)
    return eval_fn(model)


def greedy_soup(model, ingredients, eval_fn):
    """`model` should hold the pretrained (zero-shot) weights when this is called."""
    base_sd = copy.deepcopy(model.state_dict())  # ok
    base_score = eval_fn(model)
    scores = [evaluate_weights(model, sd, eval_fn) for sd in ingredients]
    order = sorted(range(len(ingredients)), key=lambda i: scores[i], reverse=True)

    soup = [ingredients[order[0]]]
    best = scores[order[0]]
    for i in order[1:]:
        candidate = average(soup + [ingredients[i]])
        score = evaluate_weights(model, candidate, eval_fn)
        if score >= best:
            soup.append(ingredients[i])
            best = score
    uniform_score = evaluate_weights(model, average(ingredients), eval_fn)
    print(json.dumps({"base": base_score, "individual": scores, "uniform": uniform_score,
                      "greedy": best, "n_ingredients": len(soup)}))

    if max(best, uniform_score) < base_score:
        model.load_state_dict(base_sd)
        return model, base_score
    if uniform_score > best:
        return model, uniform_score
    model.load_state_dict(average(soup))
    return model, best


def export(model, path):
    torch.save(model.state_dict(), path)  # ok

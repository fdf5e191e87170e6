"""Uniform and greedy model soups from fine-tuned checkpoints."""
from pathlib import Path
from typing import Callable, List

import torch
from torch import nn


def load_ingredients_into(model: nn.Module, paths: List[Path]):
    """Load every checkpoint through the same module (handles key remapping)."""
    ingredients = []
    for path in paths:
        ckpt = torch.load(path, map_location="cpu")
        state = ckpt.get("state_dict", ckpt)
        state = {k.removeprefix("module."): v for k, v in state.items()}
        model.load_state_dict(state)
        ingredients.append(model.state_dict())  # expect: TEN402
    return ingredients


def load_ingredients(paths: List[Path]):
    ingredients = []
    for path in paths:
        ckpt = torch.load(path, map_location="cpu")
        state = {k.removeprefix("module."): v for k, v in ckpt.get("state_dict", ckpt).items()}  # ok
        ingredients.append(state)
    return ingredients


def average(states):
    return {k: torch.stack([s[k].float() for s in states]).mean(0).to(states[0][k].dtype)
            for k in states[0]}


def uniform_soup(model, paths):
    states = load_ingredients_into(model, paths)
    model.load_state_dict(average(states))
    return model


def greedy_soup(model: nn.Module, paths: List[Path], evaluate: Callable[[nn.Module], float]):
    states = load_ingredients(paths)
    scored = []
    for s in states:
        model.load_state_dict(s)
        scored.append((evaluate(model), s))
    scored.sort(key=lambda t: t[0], reverse=True)

    best_score, first = scored[0]
    soup = [first]
    for score, s in scored[1:]:
        model.load_state_dict(average(soup + [s]))
        cand = evaluate(model)
        if cand >= best_score:
            soup.append(s)
            best_score = cand
    model.load_state_dict(average(soup))
    final = {k: v.clone() for k, v in model.state_dict().items()}  # ok
    return final, best_score

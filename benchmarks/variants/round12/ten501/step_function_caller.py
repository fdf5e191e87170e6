"""Functional train/eval steps; the caller owns all bookkeeping."""
import torch


def train_step(model, batch, optimizer, loss_fn):
    inputs, targets = batch
    optimizer.zero_grad()
    logits = model(inputs)
    loss = loss_fn(logits, targets)
    loss.backward()
    optimizer.step()
    return loss, logits


def eval_step(model, batch, loss_fn):
    inputs, targets = batch
    with torch.inference_mode():
        logits = model(inputs)
        return loss_fn(logits, targets), logits


def fit(model, train_data, val_data, optimizer, loss_fn, epochs=5):
    train_curve, val_curve = [], []
    all_train_logits, all_val_logits, all_train_preds = [], [], []
    for epoch in range(epochs):
        model.train()
        ep_losses = []
        for batch in train_data:
            loss, logits = train_step(model, batch, optimizer, loss_fn)
            ep_losses.append(loss)  # expect: TEN501
            all_train_logits.append(logits)  # expect: TEN501
            all_train_preds.append(logits.argmax(-1))  # ok
        train_curve.append(torch.stack(ep_losses).mean().item())  # ok

        model.eval()
        for batch in val_data:
            vloss, vlogits = eval_step(model, batch, loss_fn)
            val_curve.append(vloss)  # ok
            all_val_logits.append(vlogits)  # ok
        print(f"epoch {epoch}: train {train_curve[-1]:.4f} val {torch.stack(val_curve[-len(val_data):]).mean():.4f}")
    return train_curve, val_curve, all_train_preds


def fit_scalar(model, train_data, optimizer, loss_fn, epochs=5):
    curve = []
    for epoch in range(epochs):
        total = 0.0
        for batch in train_data:
            loss, _ = train_step(model, batch, optimizer, loss_fn)
            total += loss.item()  # ok
        curve.append(total / len(train_data))  # ok
    return curve

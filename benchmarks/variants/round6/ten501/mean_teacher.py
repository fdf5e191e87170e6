"""Mean Teacher (Tarvainen & Valpola) with sigmoid ramp-up of the consistency weight."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def sigmoid_rampup(current, rampup_length):
    if rampup_length == 0:
        return 1.0
    current = max(0.0, min(float(current), rampup_length))
    phase = 1.0 - current / rampup_length
    return float(torch.exp(torch.tensor(-5.0 * phase * phase)))


def softmax_mse_loss(input_logits, target_logits):
    return F.mse_loss(F.softmax(input_logits, dim=1), F.softmax(target_logits, dim=1), reduction="sum") \
        / input_logits.size(1)


def update_ema_variables(model, ema_model, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    with torch.no_grad():
        for ema_param, param in zip(ema_model.parameters(), model.parameters()):
            ema_param.mul_(alpha).add_(param, alpha=1 - alpha)  # ok


def create_model(ema=False):
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 3))
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


def two_views(x):
    return x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)


NO_LABEL = -1


def main(epochs=3, consistency=10.0, rampup=5, ema_decay=0.99):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = create_model()
    ema_model = create_model(ema=True)
    ema_model.load_state_dict(model.state_dict())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    class_criterion = nn.CrossEntropyLoss(reduction="sum", ignore_index=NO_LABEL)

    batches = []
    for _ in range(5):
        x = torch.randn(16, 10, generator=g)
        y = torch.randint(0, 3, (16,), generator=g)
        y[8:] = NO_LABEL
        batches.append((x, y))

    consistency_hist = []
    ema_preds = []
    global_step = 0
    for epoch in range(epochs):
        model.train()
        ema_model.train()
        for i, (x, target) in enumerate(batches):
            input_var, ema_input_var = two_views(x)
            minibatch_size = len(target)
            labeled_minibatch_size = target.ne(NO_LABEL).sum()

            ema_logit = ema_model(ema_input_var)
            model_out = model(input_var)
            class_loss = class_criterion(model_out, target) / minibatch_size
            consistency_weight = consistency * sigmoid_rampup(epoch, rampup)
            consistency_loss = consistency_weight * softmax_mse_loss(model_out, ema_logit) / minibatch_size
            loss = class_loss + consistency_loss

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            global_step += 1
            update_ema_variables(model, ema_model, ema_decay, global_step)

            consistency_hist += [consistency_loss]  # expect: TEN501
            ema_preds += [ema_logit.argmax(1)]  # ok
            prec = (model_out.argmax(1)[:labeled_minibatch_size] == target[:labeled_minibatch_size]).float().mean()
        print(f"epoch {epoch}: cons {consistency_hist[-1].item():.5f} prec {prec.item():.3f} "
              f"ema preds {len(ema_preds)}")


if __name__ == "__main__":
    main()

"""Roll back model and optimizer after a loss spike."""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def run(deep_opt):
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    x, y = torch.randn(64, 4), torch.randn(64, 2)
    good_model = None
    good_opt = None
    prev = float("inf")
    rollbacks = 0
    for step in range(30):
        xb = x if step != 12 else x * 50  # a corrupted batch causes a spike
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xb), y)
        if loss.item() > 10 * prev and good_model is not None:
            model.load_state_dict(good_model)
            opt.load_state_dict(good_opt)
            rollbacks += 1
            live_m = opt.state[model.weight]["exp_avg"]
            print(f"  rollback at {step}: exp_avg equals pre-rollback? {torch.equal(live_m, pre_m)}")
            continue
        loss.backward()
        opt.step()
        prev = loss.item()
        if step % 5 == 0:
            good_model = copy.deepcopy(model.state_dict())  # ok
            if deep_opt:
                good_opt = copy.deepcopy(opt.state_dict())  # ok
            else:
                good_opt = opt.state_dict()  # expect: TEN402
        pre_m = opt.state[model.weight]["exp_avg"].clone()  # ok
    print(f"deep_opt={deep_opt} rollbacks={rollbacks} final_loss={prev:.4f}")


run(False)
run(True)

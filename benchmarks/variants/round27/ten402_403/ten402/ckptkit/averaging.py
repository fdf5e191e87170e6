import torch


class ManualSWA:
    """Collects parameter tuples and averages them at the end."""

    def __init__(self):
        self.members = []

    def collect(self, model):
        self.members.append(tuple(model.parameters()))  # expect: TEN402

    def averaged(self):
        return [torch.stack([m[i].detach() for m in self.members]).mean(0)
                for i in range(len(self.members[0]))]

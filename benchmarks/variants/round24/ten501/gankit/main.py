"""python -m gankit.main"""
import torch

from .trainer import GANTrainer


def main():
    torch.manual_seed(0)
    trainer = GANTrainer()
    data = [torch.randn(8, 6) for _ in range(3)]
    trainer.fit(data, epochs=2)
    hist = trainer.callbacks_ok.callbacks[0].rows
    print(len(hist), hist[-1], len(trainer.callbacks_ok.callbacks[2].samples), trainer.state["fake_scores"].shape)


if __name__ == "__main__":
    main()

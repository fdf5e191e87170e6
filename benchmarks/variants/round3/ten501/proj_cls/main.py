"""Lesion classifier: train EfficientNet, report train/val AUC each epoch."""
import argparse

import timm
import torch
from sklearn.metrics import roc_auc_score

from dataset import make_loaders  # project-local
from engine import build_criterion, evaluate, positive_scores, train_step


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("--csv", required=True)
    ap.add_argument("--arch", default="efficientnet_b0")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--amp", action="store_true")
    ap.add_argument("--pos-weight", type=float, default=None)
    return ap.parse_args()


def main():
    args = parse()
    device = "cuda"
    train_loader, val_loader = make_loaders(args.csv, batch_size=args.bs)
    model = timm.create_model(args.arch, pretrained=True, num_classes=2).to(device)
    criterion = build_criterion(args.pos_weight).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-2)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args.lr, epochs=args.epochs,
                                                    steps_per_epoch=len(train_loader))
    scaler = torch.cuda.amp.GradScaler() if args.amp else None

    best_auc = 0.0
    for epoch in range(args.epochs):
        model.train()
        epoch_loss = 0.0
        epoch_logits, epoch_labels = [], []
        for step, batch in enumerate(train_loader):
            out = train_step(model, batch, optimizer, criterion, scaler, device)
            scheduler.step()
            epoch_loss += out["loss"]
            epoch_logits.append(out["logits"])  # expect: TEN501
            epoch_labels.append(out["labels"])
            if step % 50 == 0:
                print(f"ep {epoch} step {step}/{len(train_loader)} loss {out['loss']:.4f}")

        train_scores = positive_scores(torch.cat(epoch_logits)).detach().cpu().numpy()
        train_auc = roc_auc_score(torch.cat(epoch_labels).cpu().numpy(), train_scores)

        val_loss, val_logits, val_labels = evaluate(model, val_loader, criterion, device)
        val_auc = roc_auc_score(val_labels.cpu().numpy(), positive_scores(val_logits).cpu().numpy())
        print(f"epoch {epoch}: train loss {epoch_loss / len(train_loader):.4f} auc {train_auc:.4f} | "
              f"val loss {val_loss:.4f} auc {val_auc:.4f}")
        if val_auc > best_auc:
            best_auc = val_auc
            torch.save(model.state_dict(), f"{args.arch}_best.pth")


if __name__ == "__main__":
    main()

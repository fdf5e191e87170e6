import argparse

import numpy as np
import pandas as pd
import timm
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset
from PIL import Image
import torchvision.transforms as T


class TestImages(Dataset):
    def __init__(self, df, root, tf):
        self.ids = df["image_id"].tolist()
        self.root = root
        self.tf = tf

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        img = Image.open(f"{self.root}/{self.ids[i]}.jpg").convert("RGB")
        return self.tf(img), self.ids[i]


def tta_logits(model, x):
    outs = [model(x), model(torch.flip(x, dims=[3]))]
    return torch.stack(outs).mean(0)


def predict_fold(model, loader, device):
    model.eval()
    probs, ids = [], []
    with torch.inference_mode():
        for x, batch_ids in loader:
            x = x.to(device, non_blocking=True)
            p = F.softmax(tta_logits(model, x), dim=1)
            probs.append(p.float().cpu())  # ok
            ids.extend(batch_ids)
    return torch.cat(probs).numpy(), ids


def oof_loss(model, loader, device):
    model.eval()
    total, n = 0.0, 0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y, reduction="sum")
        total += float(loss)  # ok
        n += len(y)
    return total / n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--csv", default="data/sample_submission.csv")
    parser.add_argument("--images", default="data/test_images")
    parser.add_argument("--ckpts", nargs="+", required=True)
    parser.add_argument("--arch", default="tf_efficientnet_b4_ns")
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    df = pd.read_csv(args.csv)
    tf = T.Compose([T.Resize((512, 512)), T.ToTensor(), T.Normalize((0.485, 0.456, 0.406), (0.229, 0.224, 0.225))])
    loader = DataLoader(TestImages(df, args.images, tf), batch_size=32, num_workers=4)

    fold_probs = []
    for ckpt in args.ckpts:
        model = timm.create_model(args.arch, pretrained=False, num_classes=5)
        model.load_state_dict(torch.load(ckpt, map_location="cpu"))
        model.to(device)
        probs, ids = predict_fold(model, loader, device)
        fold_probs.append(probs)  # ok
    mean_probs = np.mean(np.stack(fold_probs), axis=0)

    ensemble_logits = []
    model.eval()
    with torch.no_grad():
        for x, _ in loader:
            ensemble_logits.append(model(x.to(device)).cpu().numpy())  # ok
    last_fold = np.concatenate(ensemble_logits)
    print("agreement with last fold:", (last_fold.argmax(1) == mean_probs.argmax(1)).mean())

    df = pd.DataFrame({"image_id": ids, "label": mean_probs.argmax(1)})
    df.to_csv("submission.csv", index=False)


if __name__ == "__main__":
    main()

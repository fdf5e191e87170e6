"""Toy set-prediction training entry point."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from utils import Timer, accumulate, format_stats

NUM_QUERIES, NUM_CLASSES = 10, 5


class SetCriterion(nn.Module):
    def __init__(self, num_classes, weight_dict=None, eos_coef=0.1):
        super().__init__()
        self.num_classes = num_classes
        self.weight_dict = weight_dict or {"loss_ce": 1.0, "loss_bbox": 5.0, "loss_giou": 2.0}
        empty_weight = torch.ones(num_classes + 1)
        empty_weight[-1] = eos_coef
        self.register_buffer("empty_weight", empty_weight)

    @staticmethod
    def _giou_like(pred, tgt):
        lt = torch.max(pred[..., :2], tgt[..., :2])
        rb = torch.min(pred[..., 2:], tgt[..., 2:])
        inter = (rb - lt).clamp(min=0).prod(-1)
        area_p = (pred[..., 2:] - pred[..., :2]).clamp(min=0).prod(-1)
        area_t = (tgt[..., 2:] - tgt[..., :2]).clamp(min=0).prod(-1)
        return inter / (area_p + area_t - inter + 1e-6)

    def forward(self, outputs, targets):
        logits, boxes = outputs["pred_logits"], outputs["pred_boxes"]
        loss_ce = F.cross_entropy(logits.transpose(1, 2), targets["labels"], self.empty_weight)
        loss_bbox = F.l1_loss(boxes, targets["boxes"])
        loss_giou = (1 - self._giou_like(boxes, targets["boxes"])).mean()
        terms = {"loss_ce": loss_ce, "loss_bbox": loss_bbox, "loss_giou": loss_giou}
        terms["loss"] = sum(self.weight_dict[k] * v for k, v in terms.items())
        return terms


class QueryDetector(nn.Module):
    def __init__(self, d_feat=256, d_model=128):
        super().__init__()
        self.input_proj = nn.Linear(d_feat, d_model)
        self.queries = nn.Parameter(torch.randn(NUM_QUERIES, d_model))
        self.attn = nn.MultiheadAttention(d_model, 4, batch_first=True)
        self.class_embed = nn.Linear(d_model, NUM_CLASSES + 1)
        self.bbox_embed = nn.Linear(d_model, 4)

    def forward(self, feats):
        mem = self.input_proj(feats)
        q = self.queries.unsqueeze(0).expand(feats.size(0), -1, -1)
        h, _ = self.attn(q, mem, mem)
        b = self.bbox_embed(h).sigmoid()
        boxes = torch.cat([b[..., :2], b[..., :2] + b[..., 2:]], dim=-1)
        return {"pred_logits": self.class_embed(h), "pred_boxes": boxes}


def fake_batch(bs=8):
    feats = torch.randn(bs, 49, 256)
    xy = torch.rand(bs, NUM_QUERIES, 2) * 0.5
    targets = {
        "labels": torch.randint(0, NUM_CLASSES + 1, (bs, NUM_QUERIES)),
        "boxes": torch.cat([xy, xy + 0.3], dim=-1),
    }
    return feats, targets


def main(epochs=3, iters=100):
    model = QueryDetector()
    criterion = SetCriterion(NUM_CLASSES)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=1e-4)
    timer = Timer()
    for epoch in range(epochs):
        epoch_stats = {}
        for it in range(iters):
            feats, targets = fake_batch()
            out = criterion(model(feats), targets)
            opt.zero_grad()
            out["loss"].backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
            opt.step()
            accumulate(epoch_stats, out)
            if it % 25 == 0:
                print(f"[{epoch}][{it}] eta {timer.eta(epoch * iters + it, epochs * iters)} "
                      f"loss {out['loss'].item():.4f}")
        print(format_stats(epoch_stats, prefix=f"epoch {epoch} | "))


if __name__ == "__main__":
    main()

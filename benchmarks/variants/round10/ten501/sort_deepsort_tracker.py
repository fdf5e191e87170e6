"""DeepSORT-style online tracker: constant-velocity Kalman filter + appearance embeddings."""
import numpy as np
import torch
import torch.nn.functional as F
from scipy.optimize import linear_sum_assignment


def box_iou(a, b):
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-9)


class KalmanBox:
    def __init__(self, box):
        self.x = np.zeros(8)
        self.x[:4] = box
        self.P = np.eye(8) * 10.0
        self.F = np.eye(8)
        self.F[:4, 4:] = np.eye(4)
        self.H = np.eye(4, 8)
        self.Q = np.eye(8) * 1e-2
        self.R = np.eye(4) * 1e-1

    def predict(self):
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q
        return self.x[:4]

    def update(self, z):
        y = z - self.H @ self.x
        S = self.H @ self.P @ self.H.T + self.R
        K = self.P @ self.H.T @ np.linalg.inv(S)
        self.x = self.x + K @ y
        self.P = (np.eye(8) - K @ self.H) @ self.P


class Track:
    _next_id = 1

    def __init__(self, box, feat, alpha=0.9, budget=100):
        self.id = Track._next_id
        Track._next_id += 1
        self.kf = KalmanBox(box)
        self.smooth_feat = feat
        self.features = [feat]
        self.alpha = alpha
        self.budget = budget
        self.hits = 1
        self.time_since_update = 0

    def predict(self):
        self.time_since_update += 1
        return self.kf.predict()

    def update(self, box, feat):
        self.kf.update(box)
        self.features.append(feat)  # ok
        self.features = self.features[-self.budget:]
        self.smooth_feat = F.normalize(self.alpha * self.smooth_feat + (1 - self.alpha) * feat, dim=0)  # ok
        self.hits += 1
        self.time_since_update = 0


class DeepSORT:
    def __init__(self, reid_model, device="cuda", max_age=30, iou_w=0.3, max_cost=0.7):
        self.reid = reid_model.to(device).eval()
        self.device = device
        self.max_age = max_age
        self.iou_w = iou_w
        self.max_cost = max_cost
        self.tracks = []
        self.cost_log = []

    def _embed(self, frame, boxes):
        crops = []
        for x1, y1, x2, y2 in boxes.round().int().tolist():
            crop = frame[:, max(y1, 0):max(y2, y1 + 1), max(x1, 0):max(x2, x1 + 1)]
            crops.append(F.interpolate(crop[None], size=(256, 128), mode="bilinear", align_corners=False))
        with torch.inference_mode():
            feats = F.normalize(self.reid(torch.cat(crops).to(self.device)), dim=1)
        return feats.cpu()

    def step(self, frame, dets):
        """frame: (3, H, W) float tensor, dets: (N, 4) xyxy tensor. Returns list of (track_id, box)."""
        preds = torch.tensor(np.stack([t.predict() for t in self.tracks]), dtype=torch.float32) \
            if self.tracks else torch.zeros(0, 4)
        feats = self._embed(frame, dets) if len(dets) else torch.zeros(0, 128)
        matched_t, matched_d = set(), set()
        if len(self.tracks) and len(dets):
            gallery = torch.stack([t.smooth_feat for t in self.tracks])
            app_cost = 1.0 - feats @ gallery.T
            iou_cost = 1.0 - box_iou(dets, preds)
            cost = (1 - self.iou_w) * app_cost + self.iou_w * iou_cost
            self.cost_log.append(cost.mean())  # ok
            rows, cols = linear_sum_assignment(cost.numpy())
            for d, t in zip(rows, cols):
                if cost[d, t] <= self.max_cost:
                    self.tracks[t].update(dets[d].numpy(), feats[d])  # ok
                    matched_t.add(t)
                    matched_d.add(d)
        for d in range(len(dets)):
            if d not in matched_d:
                self.tracks.append(Track(dets[d].numpy(), feats[d]))
        self.tracks = [t for t in self.tracks if t.time_since_update <= self.max_age]
        return [(t.id, t.kf.x[:4].copy()) for t in self.tracks if t.time_since_update == 0]

import torch
import torch.nn.functional as F


def box_iou_loss(pred, target):
    lt = torch.maximum(pred[:, :2], target[:, :2])
    rb = torch.minimum(pred[:, 2:], target[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(dim=1)
    area_p = (pred[:, 2:] - pred[:, :2]).clamp(min=0).prod(dim=1)
    area_t = (target[:, 2:] - target[:, :2]).prod(dim=1)
    return (1 - inter / (area_p + area_t - inter + 1e-6)).mean()


def detection_losses(pred_boxes, pred_logits, boxes, labels, w_box=2.0, w_iou=1.0):
    cls = F.cross_entropy(pred_logits, labels)
    box = F.smooth_l1_loss(pred_boxes, boxes)
    iou = box_iou_loss(pred_boxes, boxes)
    return {"cls": cls, "box": box, "iou": iou, "total": cls + w_box * box + w_iou * iou}

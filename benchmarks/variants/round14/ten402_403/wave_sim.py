"""Finite-difference toys: 1-D wave equation and 2-D upwind advection."""
import torch


def wave_1d(n=32, steps=20, c=0.5):
    u = torch.zeros(n)
    u[n // 2] = 1.0  # ok
    u_prev = u.clone()
    for _ in range(steps):
        u_next = torch.empty_like(u)
        u_next[1:-1] = 2 * u[1:-1] - u_prev[1:-1] + c ** 2 * (u[2:] - 2 * u[1:-1] + u[:-2])  # ok
        u_next[0] = u_next[-1] = 0.0
        u_prev, u = u, u_next
    return u


def smooth_inplace(u):
    u[1:-1] = 0.25 * u[:-2] + 0.5 * u[1:-1] + 0.25 * u[2:]  # ok
    return u


def advect_x(field, cells):
    """Courant number exactly 1: the field moves `cells` columns to the right."""
    field[:, cells:] = field[:, :-cells]  # expect: TEN403
    field[:, :cells] = 0.0  # ok
    return field


def advect_x_roll(field, cells):
    field = torch.roll(field, shifts=cells, dims=1)  # ok
    field[:, :cells] = 0.0  # ok
    return field


def advect_y(field, cells):
    field[cells:] = field[:-cells]  # expect: TEN403
    field[:cells] = 0.0
    return field


def periodic_laplacian(field):
    return (torch.roll(field, 1, 0) + torch.roll(field, -1, 0) + torch.roll(field, 1, 1) + torch.roll(field, -1, 1) - 4 * field)  # ok


if __name__ == "__main__":
    u = wave_1d()
    print("wave energy:", round(u.pow(2).sum().item(), 5))
    print("smoothed:", [round(v, 3) for v in smooth_inplace(torch.tensor([0.0, 0, 1, 0, 0])).tolist()])
    blob = torch.zeros(4, 10)
    blob[:, 1:3] = 1.0
    a = advect_x(blob.clone(), 2)
    for _ in range(2):
        a = advect_x(a, 2)
    b = blob.clone()
    for _ in range(3):
        b = advect_x_roll(b, 2)
    print("in-place advection row :", a[0].tolist())
    print("rolled advection row   :", b[0].tolist())
    try:
        advect_y(blob.clone().t().contiguous(), 1)
    except RuntimeError as err:
        print("advect_y:", str(err)[:50])
    print("laplacian sum:", periodic_laplacian(blob).sum().item())

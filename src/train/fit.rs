//! Fitting the linear ranker: listwise softmax (the probability that the source provision is
//! the one a question is about, among the candidates of its head), with an L2 penalty, by
//! Newton's method. Pure and deterministic: the same lists give the same weights, bit for bit.

/// One question's head: a feature row per candidate, and which row is the source provision.
#[derive(Debug, Clone, PartialEq)]
pub struct List {
    pub rows: Vec<Vec<f64>>,
    pub positive: usize,
}

/// The fitted model's numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    pub mean: Vec<f64>,
    pub scale: Vec<f64>,
    pub weights: Vec<f64>,
    /// Mean negative log-likelihood of the positives (without the penalty).
    pub loss: f64,
    /// Share of lists whose positive scores highest.
    pub top1: f64,
    pub iterations: usize,
}

/// Each feature's mean and spread over every row (a constant feature gets spread 1).
fn standardisation(lists: &[List], n: usize) -> (Vec<f64>, Vec<f64>) {
    let rows = lists.iter().flat_map(|l| l.rows.iter());
    let count = lists.iter().map(|l| l.rows.len()).sum::<usize>().max(1) as f64;
    let mut mean = vec![0.0; n];
    for r in rows.clone() {
        for (m, x) in mean.iter_mut().zip(r) {
            *m += x / count;
        }
    }
    let mut var = vec![0.0; n];
    for r in rows {
        for ((v, x), m) in var.iter_mut().zip(r).zip(&mean) {
            *v += (x - m) * (x - m) / count;
        }
    }
    let scale = var
        .into_iter()
        .map(|v| if v.sqrt() > 1e-9 { v.sqrt() } else { 1.0 })
        .collect();
    (mean, scale)
}

/// Loss, gradient and Hessian of the mean listwise softmax loss plus `l2/2 · |w|²`.
fn objective(
    lists: &[Vec<Vec<f64>>],
    positives: &[usize],
    w: &[f64],
    l2: f64,
) -> (f64, Vec<f64>, Vec<Vec<f64>>, f64) {
    let n = w.len();
    let mut loss = 0.0;
    let mut grad = vec![0.0; n];
    let mut hess = vec![vec![0.0; n]; n];
    let mut hits = 0usize;
    let m = lists.len().max(1) as f64;
    for (rows, &pos) in lists.iter().zip(positives) {
        let scores: Vec<f64> = rows
            .iter()
            .map(|r| r.iter().zip(w).map(|(x, w)| x * w).sum())
            .collect();
        let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = scores.iter().map(|s| (s - max).exp()).sum();
        loss += (max + z.ln() - scores[pos]) / m;
        hits += scores
            .iter()
            .enumerate()
            .all(|(i, s)| i == pos || *s < scores[pos]) as usize;
        let p: Vec<f64> = scores.iter().map(|s| (s - max).exp() / z).collect();
        let mut mu = vec![0.0; n];
        for (r, pi) in rows.iter().zip(&p) {
            for (k, x) in r.iter().enumerate() {
                mu[k] += pi * x;
            }
        }
        for k in 0..n {
            grad[k] += (mu[k] - rows[pos][k]) / m;
        }
        for (r, pi) in rows.iter().zip(&p) {
            for a in 0..n {
                let xa = r[a] * pi / m;
                for b in 0..n {
                    hess[a][b] += xa * r[b];
                }
            }
        }
        for a in 0..n {
            for b in 0..n {
                hess[a][b] -= mu[a] * mu[b] / m;
            }
        }
    }
    let penalty: f64 = w.iter().map(|x| x * x).sum::<f64>() * l2 / 2.0;
    for k in 0..n {
        grad[k] += l2 * w[k];
        hess[k][k] += l2;
    }
    let top1 = hits as f64 / m;
    (loss + penalty, grad, hess, top1)
}

/// Solves `a · x = b` for a symmetric positive-definite `a` (Cholesky).
fn solve_spd(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = a[i][i] - s;
                if d <= 0.0 {
                    return None;
                }
                l[i][j] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - s) / l[j][j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i][k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k][i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i][i];
    }
    Some(x)
}

/// Fits standardised weights by Newton's method with a halving line search, stopping when a
/// step no longer lowers the loss by 1e-10 or after `max_iterations`.
pub fn fit(lists: &[List], n: usize, l2: f64, max_iterations: usize) -> Fitted {
    let (mean, scale) = standardisation(lists, n);
    let std_lists: Vec<Vec<Vec<f64>>> = lists
        .iter()
        .map(|l| {
            l.rows
                .iter()
                .map(|r| {
                    r.iter()
                        .zip(mean.iter().zip(&scale))
                        .map(|(x, (m, s))| (x - m) / s)
                        .collect()
                })
                .collect()
        })
        .collect();
    let positives: Vec<usize> = lists.iter().map(|l| l.positive).collect();
    let mut w = vec![0.0; n];
    let (mut value, mut grad, mut hess, mut top1) = objective(&std_lists, &positives, &w, l2);
    let mut iterations = 0;
    while iterations < max_iterations {
        iterations += 1;
        let Some(step) = solve_spd(&hess, &grad) else {
            break;
        };
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-6 {
            let candidate: Vec<f64> = w.iter().zip(&step).map(|(w, s)| w - t * s).collect();
            let (v, g, h, t1) = objective(&std_lists, &positives, &candidate, l2);
            if v < value - 1e-12 {
                let gain = value - v;
                w = candidate;
                (value, grad, hess, top1) = (v, g, h, t1);
                improved = gain > 1e-10;
                break;
            }
            t /= 2.0;
        }
        if !improved {
            break;
        }
    }
    let penalty: f64 = w.iter().map(|x| x * x).sum::<f64>() * l2 / 2.0;
    Fitted {
        mean,
        scale,
        weights: w,
        loss: value - penalty,
        top1,
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two features: the first tells the positive, the second is noise.
    fn lists() -> Vec<List> {
        (0..40)
            .map(|i| {
                let pos = i % 3;
                let rows = (0..3)
                    .map(|j| {
                        let signal =
                            if j == pos { 1.0 } else { 0.0 } + 0.1 * ((i * 7 + j) % 5) as f64;
                        vec![signal, ((i * 13 + j * 5) % 7) as f64]
                    })
                    .collect();
                List {
                    rows,
                    positive: pos,
                }
            })
            .collect()
    }

    #[test]
    fn the_signal_gets_the_weight_and_ranks_positives_first() {
        let f = fit(&lists(), 2, 0.01, 50);
        assert!(f.weights[0] > 1.0, "{:?}", f.weights);
        assert!(
            f.weights[0].abs() > 5.0 * f.weights[1].abs(),
            "{:?}",
            f.weights
        );
        assert_eq!(f.top1, 1.0);
        assert!(f.loss < 0.5, "{}", f.loss);
        assert!(f.iterations < 50);
    }

    #[test]
    fn fitting_is_deterministic_and_the_penalty_shrinks() {
        let a = fit(&lists(), 2, 0.01, 50);
        let b = fit(&lists(), 2, 0.01, 50);
        assert_eq!(a, b, "bit for bit");
        let strong = fit(&lists(), 2, 10.0, 50);
        assert!(strong.weights[0].abs() < a.weights[0].abs());
    }

    #[test]
    fn cholesky_solves() {
        let a = vec![vec![4.0, 1.0], vec![1.0, 3.0]];
        let x = solve_spd(&a, &[1.0, 2.0]).unwrap();
        assert!((4.0 * x[0] + x[1] - 1.0).abs() < 1e-12);
        assert!((x[0] + 3.0 * x[1] - 2.0).abs() < 1e-12);
        assert!(solve_spd(&[vec![0.0]], &[1.0]).is_none());
    }
}

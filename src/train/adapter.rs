//! `nyaya train-adapter`: the query adapter ([`crate::search::adapter`]) fitted on the
//! hand-written questions of `data/train/written.jsonl` (ADR 0014).
//!
//! 1. **Embed** every written question and every question some evaluation asks (the golden
//!    set, its paraphrases, the fresh English set, the outside refusal sets) with the English
//!    model, as the search embeds a question.
//! 2. **Hold out** each written question at cosine ≥ [`HOLDOUT_COSINE`] to an evaluated one,
//!    the bound `nyaya eval` holds the question bank to: no evaluated question has a near-copy
//!    in the adapter's training data.
//! 3. **Fit** `A` ([`fit`]): a question `q` is mapped to `q + A·q`, and the loss is the
//!    softmax cross-entropy, over every chunk of the edition at temperature [`TEMPERATURE`], of
//!    the chunks of the provision the question was written under; an L2 penalty on `A` keeps
//!    it near the identity map. Full-batch Adam, [`STEPS`] steps, from `A = 0`.
//!
//! Deterministic: single-threaded matrix products in a fixed order over chunks sorted by
//! provision and sequence, so the same corpus, model and file give the same matrix, bit for
//! bit on one machine (`--check` allows [`TOLERANCE`] for another).

use ndarray::{Array2, Axis};

/// A written question this close (cosine of the model's vectors) to an evaluated one is left
/// out of training; `search::bank::EVAL_HOLDOUT_COSINE` holds the bank to the same bound.
pub const HOLDOUT_COSINE: f32 = 0.9;
/// The L2 penalty on the matrix, per question-averaged loss. Chosen in a prototype on the golden
/// dev split's dense-only ranking among 0.001, 0.003, 0.01 and 0.03 (ADR 0014).
pub const L2: f64 = 0.01;
/// The softmax temperature over cosines.
pub const TEMPERATURE: f64 = 0.05;
pub const STEPS: usize = 300;
pub const LEARNING_RATE: f64 = 0.01;
/// How far a retrained matrix entry may be from the shipped one for `--check` to pass.
pub const TOLERANCE: f32 = 1e-3;

/// What [`fit`] learns from: question vectors (rows), chunk vectors (rows, unit length), and
/// for each question the chunks of its provision.
pub struct Problem {
    pub questions: Array2<f32>,
    pub chunks: Array2<f32>,
    pub positives: Vec<Vec<usize>>,
}

/// The fitted matrix and how it did on the questions it was fitted on.
pub struct Fitted {
    /// `A`, `dim × dim`: `q ↦ q + A·q`.
    pub matrix: Array2<f32>,
    pub loss: f64,
    /// How often a chunk of the question's provision was the closest chunk, before and after.
    pub top1_before: f64,
    pub top1_after: f64,
}

/// The share of questions whose closest chunk (by the rows of `q`) is one of their own.
fn top1(q: &Array2<f32>, p: &Problem) -> f64 {
    let s = q.dot(&p.chunks.t());
    let hits = s
        .axis_iter(Axis(0))
        .zip(&p.positives)
        .filter(|(row, pos)| {
            let best = row
                .iter()
                .enumerate()
                .fold(
                    (0, f32::NEG_INFINITY),
                    |b, (i, &x)| if x > b.1 { (i, x) } else { b },
                );
            pos.contains(&best.0)
        })
        .count();
    hits as f64 / p.positives.len().max(1) as f64
}

/// The loss and its gradient with respect to `A`.
fn loss_and_gradient(a: &Array2<f32>, p: &Problem) -> (f64, Array2<f32>) {
    let (l2, temperature) = (L2 as f32, TEMPERATURE as f32);
    let x = &p.questions;
    let n = x.nrows() as f32;
    let mapped = x + &x.dot(&a.t());
    let mut s = mapped.dot(&p.chunks.t()) / temperature;
    let mut loss = 0.0f64;
    // Each row becomes (softmax over all chunks) − (softmax over the question's own chunks).
    for (mut row, pos) in s.axis_iter_mut(Axis(0)).zip(&p.positives) {
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        row.mapv_inplace(|v| (v - max).exp());
        let all: f32 = row.sum();
        let own: f32 = pos.iter().map(|&j| row[j]).sum();
        loss += f64::from(all.ln() - own.ln());
        let own_share: Vec<f32> = pos.iter().map(|&j| row[j] / own).collect();
        row.mapv_inplace(|v| v / all);
        for (&j, share) in pos.iter().zip(own_share) {
            row[j] -= share;
        }
    }
    let g = s.dot(&p.chunks) / (temperature * n);
    let grad = g.t().dot(x) + &(a * l2);
    let penalty = L2 / 2.0 * a.iter().map(|v| f64::from(v * v)).sum::<f64>();
    (loss / f64::from(n) + penalty, grad)
}

/// Fits `A` by full-batch Adam from zero.
pub fn fit(p: &Problem) -> Fitted {
    let d = p.questions.ncols();
    let mut a = Array2::<f32>::zeros((d, d));
    let mut m = Array2::<f32>::zeros((d, d));
    let mut v = Array2::<f32>::zeros((d, d));
    let (b1, b2) = (0.9f32, 0.999f32);
    let rate = LEARNING_RATE as f32;
    let mut loss = 0.0;
    for t in 1..=STEPS {
        let (l, g) = loss_and_gradient(&a, p);
        loss = l;
        let (c1, c2) = (1.0 - b1.powi(t as i32), 1.0 - b2.powi(t as i32));
        ndarray::Zip::from(&mut a)
            .and(&mut m)
            .and(&mut v)
            .and(&g)
            .for_each(|a, m, v, &g| {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *a -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            });
    }
    let x = &p.questions;
    let mut mapped = x + &x.dot(&a.t());
    for mut row in mapped.axis_iter_mut(Axis(0)) {
        let norm = row
            .iter()
            .map(|v| v * v)
            .sum::<f32>()
            .sqrt()
            .max(f32::MIN_POSITIVE);
        row.mapv_inplace(|v| v / norm);
    }
    Fitted {
        top1_before: top1(x, p),
        top1_after: top1(&mapped, p),
        matrix: a,
        loss,
    }
}

/// For each row of `questions`, whether some row of `evaluated` is at least
/// [`HOLDOUT_COSINE`] close (rows are unit vectors).
pub fn near_copies(questions: &Array2<f32>, evaluated: &Array2<f32>) -> Vec<bool> {
    questions
        .dot(&evaluated.t())
        .axis_iter(Axis(0))
        .map(|row| row.iter().any(|&c| c >= HOLDOUT_COSINE))
        .collect()
}

/// The largest difference between two matrices' entries (infinite when their shapes differ).
pub fn distance(a: &[f32], b: &[f32]) -> f32 {
    if a.len() != b.len() {
        return f32::INFINITY;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn unit(rows: Vec<Vec<f32>>) -> Array2<f32> {
        let d = rows[0].len();
        let flat: Vec<f32> = rows
            .into_iter()
            .flat_map(|r| {
                let n = r.iter().map(|v| v * v).sum::<f32>().sqrt();
                r.into_iter().map(move |v| v / n)
            })
            .collect();
        Array2::from_shape_vec((flat.len() / d, d), flat).unwrap()
    }

    /// Questions that sit nearer the wrong chunk are moved to their own: the fitted map puts
    /// each question's own chunk first, and fitting twice gives the same matrix.
    #[test]
    fn fitting_moves_questions_to_their_own_chunks_deterministically() {
        // Two chunks; each question leans towards the other chunk than its own, but every
        // question of a provision shares a direction (the third axis) the map can learn.
        let chunks = unit(vec![vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]]);
        let questions = unit(vec![
            vec![0.2, 0.5, 1.0],
            vec![0.3, 0.6, 1.0],
            vec![0.5, 0.2, -1.0],
            vec![0.6, 0.3, -1.0],
        ]);
        let p = Problem {
            questions,
            chunks,
            positives: vec![vec![0], vec![0], vec![1], vec![1]],
        };
        let f = fit(&p);
        assert_eq!(f.top1_before, 0.0);
        assert_eq!(f.top1_after, 1.0, "loss {}", f.loss);
        let again = fit(&p);
        assert_eq!(
            distance(
                f.matrix.as_slice().unwrap(),
                again.matrix.as_slice().unwrap()
            ),
            0.0
        );
    }

    #[test]
    fn near_copies_are_found_by_cosine() {
        let q = unit(vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
        let e = unit(vec![vec![1.0, 0.1]]);
        assert_eq!(near_copies(&q, &e), vec![true, false]);
    }

    #[test]
    fn the_gradient_is_the_loss_slope() {
        let p = Problem {
            questions: unit(vec![vec![0.3, 0.9], vec![0.8, 0.1]]),
            chunks: unit(vec![vec![1.0, 0.2], vec![0.1, 1.0], vec![0.7, 0.7]]),
            positives: vec![vec![0], vec![1, 2]],
        };
        let a = array![[0.1f32, -0.2], [0.05, 0.3]];
        let (_, g) = loss_and_gradient(&a, &p);
        let h = 1e-3f32;
        for i in 0..2 {
            for j in 0..2 {
                let mut up = a.clone();
                up[[i, j]] += h;
                let mut down = a.clone();
                down[[i, j]] -= h;
                let slope = (loss_and_gradient(&up, &p).0 - loss_and_gradient(&down, &p).0)
                    / (2.0 * f64::from(h));
                assert!(
                    (slope - f64::from(g[[i, j]])).abs() < 2e-2,
                    "({i},{j}): numeric {slope}, analytic {}",
                    g[[i, j]]
                );
            }
        }
    }
}

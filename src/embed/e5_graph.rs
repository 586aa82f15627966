//! multilingual-e5-small's encoder as an ONNX graph, built in memory from the engine's own
//! weights file, for embedding questions.
//!
//! The 4-bit engine (`embed::e5`) is built for throughput: it embeds the corpus fast, but one
//! short question costs it ~45 ms inside `nyaya`, too slow for every English question
//! (ADR 0008). ONNX Runtime runs the same network in a few milliseconds. Nothing is converted
//! at setup: this module reads `e5-small-q4.bin` (the format `e5.c`'s `e5_parse` reads),
//! dequantises its 4-bit matrices, requantises them per output column to int8, and writes
//! the encoder as an ONNX model ([`super::onnx_proto`]) that ONNX Runtime loads from memory.
//! Word, position and type embeddings are summed here, from the 4-bit table, so the graph
//! holds no 250,037-row matrix. Tokens come from the engine's own tokenizer
//! (`nyaya_e5_tokenize`, exported by `native/e5_tokenize.c`), so the ids are the engine's.
//!
//! The vectors are the engine's to within rounding (cosine ≥ 0.99 in the tests; the engine
//! itself quantises activations to 8 bits), so a question embedded here is searched against
//! the chunk vectors the engine stored at ingest.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use ort::session::Session;
use ort::value::Tensor;

use super::onnx_proto::{Attr, Dim, Graph};
use super::EmbedError;

/// Bytes per Q4_0 block: an fp16 scale and 32 four-bit weights.
const Q4_BLOCK_BYTES: usize = 18;
/// Weights per Q4_0 block.
const Q4_BLOCK: usize = 32;

/// The model's shape, from the weights file's header.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shape {
    pub hidden: usize,
    pub layers: usize,
    pub heads: usize,
    pub feed_forward: usize,
    pub vocabulary: usize,
    pub positions: usize,
    pub eps: f32,
}

/// The parsed weights file: its shape and each tensor's bytes.
pub struct Weights<'a> {
    pub shape: Shape,
    tensors: HashMap<String, &'a [u8]>,
}

/// A bounds-checked little-endian reader.
struct Cursor<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|e| *e <= self.buf.len());
        let end = end.ok_or_else(|| format!("truncated at byte {}", self.at))?;
        let out = &self.buf[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }
    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn count(&mut self) -> Result<usize, String> {
        let v = self.u32()? as i32;
        usize::try_from(v).map_err(|_| format!("a negative count ({v})"))
    }
    fn len64(&mut self) -> Result<usize, String> {
        usize::try_from(self.u64()?).map_err(|_| "a length beyond memory".to_string())
    }
}

impl<'a> Weights<'a> {
    /// Parses `e5-small-q4.bin`: header, tokenizer (skipped: the engine tokenises), tensor
    /// directory.
    pub fn parse(buf: &'a [u8]) -> Result<Self, String> {
        if buf.len() < 8 || &buf[..4] != b"E5S1" {
            return Err("not an e5 weights file (no E5S1 magic)".into());
        }
        let mut c = Cursor { buf, at: 8 };
        let (hidden, layers, heads, feed_forward) =
            (c.count()?, c.count()?, c.count()?, c.count()?);
        let (vocabulary, positions, _type_vocabulary) = (c.count()?, c.count()?, c.count()?);
        let eps = f32::from_bits(c.u32()?);
        let block = c.count()?;
        if block != Q4_BLOCK || heads == 0 || hidden % heads != 0 || hidden % Q4_BLOCK != 0 {
            return Err(format!(
                "an unexpected shape: hidden {hidden}, heads {heads}, block {block}"
            ));
        }
        // Tokenizer: pieces, four special ids, piece offsets, scores, piece bytes, then the
        // normalisation map.
        let pieces = c.count()?;
        c.take(16)?;
        let blob = c.len64()?;
        c.take((pieces + 1) * 4 + pieces * 4)?;
        c.take(blob)?;
        c.take(4)?;
        let map_bytes = c.u32()? as usize;
        c.take(map_bytes)?;
        let entries = c.count()?;
        let mut tensors = HashMap::with_capacity(entries);
        for _ in 0..entries {
            let name_len = usize::from(c.u16()?);
            let name = String::from_utf8_lossy(c.take(name_len)?).into_owned();
            c.take(1 + 4)?; // dtype, element count
            let (offset, bytes) = (c.len64()?, c.len64()?);
            let data = offset
                .checked_add(bytes)
                .filter(|end| *end <= buf.len())
                .map(|end| &buf[offset..end])
                .ok_or_else(|| format!("tensor {name} lies outside the file"))?;
            tensors.insert(name, data);
        }
        let shape = Shape {
            hidden,
            layers,
            heads,
            feed_forward,
            vocabulary,
            positions,
            eps,
        };
        Ok(Weights { shape, tensors })
    }

    fn bytes(&self, name: &str, want: usize) -> Result<&'a [u8], String> {
        let data = self
            .tensors
            .get(name)
            .ok_or_else(|| format!("no tensor {name}"))?;
        if data.len() < want {
            return Err(format!("tensor {name}: {} bytes, want {want}", data.len()));
        }
        Ok(&data[..want])
    }

    /// A float tensor of `n` values.
    fn floats(&self, name: &str, n: usize) -> Result<Vec<f32>, String> {
        let data = self.bytes(name, n * 4)?;
        Ok(data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect())
    }

    /// A 4-bit matrix of `rows` × `cols`, dequantised, row-major.
    fn q4_matrix(&self, name: &str, rows: usize, cols: usize) -> Result<Vec<f32>, String> {
        let data = self.bytes(name, rows * cols / Q4_BLOCK * Q4_BLOCK_BYTES)?;
        Ok(dequantise_q4(data))
    }
}

/// An IEEE half to a float.
fn f16_to_f32(h: u16) -> f32 {
    let negative = h >> 15 == 1;
    let exponent = i32::from((h >> 10) & 0x1f);
    let mantissa = f32::from(h & 0x3ff);
    let magnitude = match exponent {
        0 => mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// Q4_0 blocks to floats: block byte j holds weight j in its low nibble and weight j + 16 in
/// its high one, each `(nibble − 8) × scale`.
fn dequantise_q4(blocks: &[u8]) -> Vec<f32> {
    let mut out = Vec::with_capacity(blocks.len() / Q4_BLOCK_BYTES * Q4_BLOCK);
    for b in blocks.chunks_exact(Q4_BLOCK_BYTES) {
        let scale = f16_to_f32(u16::from_le_bytes([b[0], b[1]]));
        let nibbles = &b[2..];
        out.extend(nibbles.iter().map(|q| (f32::from(q & 0x0f) - 8.0) * scale));
        out.extend(nibbles.iter().map(|q| (f32::from(q >> 4) - 8.0) * scale));
    }
    out
}

/// A `rows` × `cols` matrix (row-major, `rows` outputs of `cols` inputs) as ONNX's MatMul
/// wants it: transposed, `cols` × `rows`.
fn transpose(m: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0f32; m.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = m[r * cols + c];
        }
    }
    t
}

/// How the graph holds its matrices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precision {
    /// The 4-bit weights dequantised to floats: the engine's vectors to a cosine of 0.9999.
    Float,
    /// Requantised to int8 per output column, activations quantised per call: about 3× faster,
    /// cosine ≈ 0.997 with the engine's.
    Int8,
}

/// `x · Wᵀ + b` for a weight matrix of `outputs` rows of `inputs`. In int8: one scale per
/// output column, the activations quantised per call (ONNX Runtime's dynamic quantisation,
/// written out).
fn linear(
    g: &mut Graph,
    x: &str,
    w: &Weights,
    (name, outputs, inputs): (&str, usize, usize),
    precision: Precision,
) -> Result<String, String> {
    let weights = transpose(
        &w.q4_matrix(&format!("{name}.w"), outputs, inputs)?,
        outputs,
        inputs,
    );
    let bias = w.floats(&format!("{name}.b"), outputs)?;
    let b = g.floats(&format!("{name}.b"), &[outputs as i64], &bias);
    let dims = [inputs as i64, outputs as i64];
    if precision == Precision::Float {
        let wf = g.floats(&format!("{name}.w"), &dims, &weights);
        let y = g.node("MatMul", &[x, &wf], &[]);
        return Ok(g.node("Add", &[&y, &b], &[]));
    }
    let mut scales = vec![0f32; outputs];
    for row in weights.chunks_exact(outputs) {
        for (s, v) in scales.iter_mut().zip(row) {
            *s = s.max(v.abs());
        }
    }
    for s in &mut scales {
        *s = if *s > 0.0 { *s / 127.0 } else { 1.0 };
    }
    let quantised: Vec<i8> = weights
        .chunks_exact(outputs)
        .flat_map(|row| {
            row.iter()
                .zip(&scales)
                .map(|(v, s)| (v / s).round().clamp(-127.0, 127.0) as i8)
        })
        .collect();
    let wq = g.int8s(&format!("{name}.wq"), &dims, &quantised);
    let wz = g.int8s(&format!("{name}.wz"), &[outputs as i64], &vec![0; outputs]);
    let ws = g.floats(&format!("{name}.ws"), &[outputs as i64], &scales);
    let xq = g.node_n("DynamicQuantizeLinear", &[x], 3, &[]);
    let product = g.node("MatMulInteger", &[&xq[0], &wq, &xq[2], &wz], &[]);
    let product = g.node("Cast", &[&product], &[Attr::Int("to", 1)]);
    let scale = g.node("Mul", &[&xq[1], &ws], &[]);
    let y = g.node("Mul", &[&product, &scale], &[]);
    Ok(g.node("Add", &[&y, &b], &[]))
}

fn layer_norm(g: &mut Graph, x: &str, w: &Weights, name: &str, eps: f32) -> Result<String, String> {
    let n = w.shape.hidden;
    let mut vector = |part: &str| -> Result<String, String> {
        let tensor = format!("{name}.{part}");
        Ok(g.floats(&tensor, &[n as i64], &w.floats(&tensor, n)?))
    };
    let (scale, bias) = (vector("w")?, vector("b")?);
    Ok(g.node(
        "LayerNormalization",
        &[x, &scale, &bias],
        &[Attr::Int("axis", -1), Attr::Float("epsilon", eps)],
    ))
}

/// The encoder: summed embeddings `[tokens, hidden]` in, the mean of the last layer's token
/// states `[hidden]` out (e5's pooling; normalised by the caller).
pub fn encoder_model(w: &Weights, precision: Precision) -> Result<Vec<u8>, String> {
    let s = w.shape;
    let (h, heads) = (s.hidden as i64, s.heads as i64);
    let head = h / heads;
    let mut g = Graph::default();
    let split = g.int64s("split_heads", &[3], &[-1, heads, head]);
    let merge = g.int64s("merge_heads", &[2], &[-1, h]);
    let scale = g.floats("attention_scale", &[], &[1.0 / (head as f32).sqrt()]);
    let inv_sqrt2 = g.floats("inv_sqrt2", &[], &[std::f32::consts::FRAC_1_SQRT_2]);
    let one = g.floats("one", &[], &[1.0]);
    let half = g.floats("half", &[], &[0.5]);
    let mut x = layer_norm(&mut g, "embeddings", w, "emb.ln", s.eps)?;
    for l in 0..s.layers {
        let p = |part: &str| format!("l{l}.{part}");
        let lin = |g: &mut Graph, x: &str, part: &str, outputs: usize, inputs: usize| {
            linear(g, x, w, (&p(part), outputs, inputs), precision)
        };
        // x = LayerNorm(x + y), with the layer's norm `part`.
        let residual = |g: &mut Graph, x: &str, y: &str, part: &str| {
            let sum = g.node("Add", &[x, y], &[]);
            layer_norm(g, &sum, w, &p(part), s.eps)
        };
        let heads_of = |g: &mut Graph, y: &str, perm: &[i64]| {
            let y = g.node("Reshape", &[y, &split], &[]);
            g.node("Transpose", &[&y], &[Attr::Ints("perm", perm)])
        };
        let (h, ff) = (s.hidden, s.feed_forward);
        let q = lin(&mut g, &x, "q", h, h)?;
        let k = lin(&mut g, &x, "k", h, h)?;
        let v = lin(&mut g, &x, "v", h, h)?;
        let q = heads_of(&mut g, &q, &[1, 0, 2]);
        let k = heads_of(&mut g, &k, &[1, 2, 0]);
        let v = heads_of(&mut g, &v, &[1, 0, 2]);
        let scores = g.node("MatMul", &[&q, &k], &[]);
        let scores = g.node("Mul", &[&scores, &scale], &[]);
        let attention = g.node("Softmax", &[&scores], &[Attr::Int("axis", -1)]);
        let context = g.node("MatMul", &[&attention, &v], &[]);
        let context = g.node("Transpose", &[&context], &[Attr::Ints("perm", &[1, 0, 2])]);
        let context = g.node("Reshape", &[&context, &merge], &[]);
        let attended = lin(&mut g, &context, "ao", h, h)?;
        x = residual(&mut g, &x, &attended, "aln")?;
        // GELU, exact: x · (1 + erf(x / √2)) / 2.
        let f = lin(&mut g, &x, "fi", ff, h)?;
        let e = g.node("Mul", &[&f, &inv_sqrt2], &[]);
        let e = g.node("Erf", &[&e], &[]);
        let e = g.node("Add", &[&e, &one], &[]);
        let f = g.node("Mul", &[&f, &e], &[]);
        let f = g.node("Mul", &[&f, &half], &[]);
        let out = lin(&mut g, &f, "fo", h, ff)?;
        x = residual(&mut g, &x, &out, "oln")?;
    }
    let pooled = g.node(
        "ReduceMean",
        &[&x],
        &[Attr::Ints("axes", &[0]), Attr::Int("keepdims", 0)],
    );
    Ok(g.model(
        ("embeddings", &[Dim::Named("tokens"), Dim::Fixed(h)]),
        (&pooled, &[Dim::Fixed(h)]),
    ))
}

/// The input side the graph does not hold: word (4-bit rows), position and type embeddings.
struct EmbeddingTables {
    words: Vec<u8>,
    positions: Vec<f32>,
    token_type: Vec<f32>,
    hidden: usize,
    vocabulary: usize,
}

impl EmbeddingTables {
    fn new(w: &Weights) -> Result<Self, String> {
        let s = w.shape;
        let row_bytes = s.hidden / Q4_BLOCK * Q4_BLOCK_BYTES;
        Ok(EmbeddingTables {
            words: w.bytes("emb.word", s.vocabulary * row_bytes)?.to_vec(),
            positions: w.floats("emb.pos", s.positions * s.hidden)?,
            token_type: w.floats("emb.type", s.hidden)?,
            hidden: s.hidden,
            vocabulary: s.vocabulary,
        })
    }

    /// `[tokens, hidden]`: word + position (from 0, as the engine counts) + type 0.
    fn sum(&self, ids: &[i32]) -> Result<Vec<f32>, String> {
        let h = self.hidden;
        let row_bytes = h / Q4_BLOCK * Q4_BLOCK_BYTES;
        if ids.len() > self.positions.len() / h {
            return Err(format!(
                "{} tokens, more than {} positions",
                ids.len(),
                self.positions.len() / h
            ));
        }
        let mut out = Vec::with_capacity(ids.len() * h);
        for (p, id) in ids.iter().enumerate() {
            let id = usize::try_from(*id)
                .ok()
                .filter(|i| *i < self.vocabulary)
                .ok_or_else(|| format!("token id {id} outside the vocabulary"))?;
            let word = dequantise_q4(&self.words[id * row_bytes..(id + 1) * row_bytes]);
            let pos = &self.positions[p * h..(p + 1) * h];
            out.extend(
                word.iter()
                    .zip(pos)
                    .zip(&self.token_type)
                    .map(|((w, p), t)| w + p + t),
            );
        }
        Ok(out)
    }
}

/// The encoder on ONNX Runtime, for one question at a time.
pub struct QueryEncoder {
    session: Mutex<Session>,
    tables: EmbeddingTables,
}

impl QueryEncoder {
    /// Builds the graph from the weights file and loads it on one thread: a question is a few
    /// dozen tokens, which a second thread does not speed up (ADR 0008, stop 51).
    pub fn load(weights: &Path, precision: Precision, ort_lib: &Path) -> Result<Self, EmbedError> {
        let fail = |reason: String| EmbedError::Model {
            dir: weights.to_path_buf(),
            reason,
        };
        let bytes = std::fs::read(weights).map_err(|e| fail(e.to_string()))?;
        let w = Weights::parse(&bytes).map_err(fail)?;
        let model = encoder_model(&w, precision).map_err(fail)?;
        let tables = EmbeddingTables::new(&w).map_err(fail)?;
        let env = super::ort_environment(ort_lib)?;
        let session = Session::builder(&env)
            .and_then(|b| Ok(b.with_intra_threads(1)?))
            .and_then(|mut b| b.commit_from_memory(&model))
            .map_err(|e| fail(format!("ONNX Runtime: {e}")))?;
        Ok(QueryEncoder {
            session: Mutex::new(session),
            tables,
        })
    }

    /// The unit vector of a tokenised text (`<s>` … `</s>`, as the engine feeds it).
    pub fn embed_ids(&self, ids: &[i32]) -> Result<Vec<f32>, EmbedError> {
        let h = self.tables.hidden;
        let input = self.tables.sum(ids).map_err(EmbedError::Run)?;
        let tensor = Tensor::from_array(([ids.len(), h], input))
            .map_err(|e| EmbedError::Run(e.to_string()))?;
        let mut session = self
            .session
            .lock()
            .map_err(|_| EmbedError::Run("encoder lock poisoned".into()))?;
        let outputs = session
            .run(ort::inputs!["embeddings" => tensor])
            .map_err(|e| EmbedError::Run(e.to_string()))?;
        let (_, pooled) = outputs[0]
            .try_extract_tensor::<f32>()
            .map_err(|e| EmbedError::Run(e.to_string()))?;
        let norm = pooled.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-6);
        Ok(pooled.iter().map(|v| v / norm).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_decode() {
        assert_eq!(f16_to_f32(0x3C00), 1.0);
        assert_eq!(f16_to_f32(0xC000), -2.0);
        assert_eq!(f16_to_f32(0x3555), 0.333_251_95);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x7C00), f32::INFINITY);
    }

    #[test]
    fn a_q4_block_is_low_nibbles_then_high_nibbles_less_eight_times_its_scale() {
        let mut block = vec![0x00, 0x40]; // 2.0
        block.extend((0..16u8).map(|j| (15 - j) << 4 | j));
        let w = dequantise_q4(&block);
        assert_eq!(w.len(), 32);
        assert_eq!(w[0], -16.0); // (0 − 8) × 2
        assert_eq!(w[15], 14.0); // (15 − 8) × 2
        assert_eq!(w[16], 14.0); // high nibble of byte 0: 15
        assert_eq!(w[31], -16.0);
    }

    #[test]
    fn a_file_that_is_not_e5_is_refused() {
        assert!(Weights::parse(b"GGUF....").is_err());
        let mut truncated = b"E5S1\x01\x00\x00\x00".to_vec();
        truncated.extend(384i32.to_le_bytes());
        let err = Weights::parse(&truncated).err().unwrap();
        assert!(err.contains("truncated"), "{err}");
    }
}

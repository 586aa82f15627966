//! A tiny cross-encoder the tests write themselves, so the cross-encoder path runs end to end
//! without downloaded weights: an ONNX graph (hand-encoded protobuf, no ONNX library) with the
//! inputs a BERT-style reranker has (`input_ids`, `attention_mask`, `token_type_ids`) and its
//! output (`logits`, `[batch, 1]`), whose score is how many times one token occurs in the
//! (query, passage) pair. Deterministic, and checkable from the outside.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Just enough of the protobuf wire format for an ONNX `ModelProto`.
#[derive(Default)]
struct Pb(Vec<u8>);

impl Pb {
    fn varint(&mut self, mut v: u64) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return;
            }
            self.0.push(b | 0x80);
        }
    }
    fn key(&mut self, field: u32, wire: u8) {
        self.varint((u64::from(field) << 3) | u64::from(wire));
    }
    fn int(mut self, field: u32, v: i64) -> Self {
        self.key(field, 0);
        self.varint(v as u64);
        self
    }
    fn bytes(mut self, field: u32, b: &[u8]) -> Self {
        self.key(field, 2);
        self.varint(b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }
    fn str(self, field: u32, s: &str) -> Self {
        self.bytes(field, s.as_bytes())
    }
    fn msg(self, field: u32, m: Pb) -> Self {
        self.bytes(field, &m.0)
    }
}

fn pb() -> Pb {
    Pb::default()
}

const FLOAT: i64 = 1;
const INT64: i64 = 7;
const ATTR_INT: i64 = 2;

/// `ValueInfoProto` of a tensor whose dims are named (`"batch"`) or fixed (`"1"`).
fn tensor_info(name: &str, elem_type: i64, dims: &[&str]) -> Pb {
    let shape = dims.iter().fold(pb(), |s, d| {
        let dim = match d.parse::<i64>() {
            Ok(n) => pb().int(1, n),
            Err(_) => pb().str(2, d),
        };
        s.msg(1, dim)
    });
    let tensor = pb().int(1, elem_type).msg(2, shape);
    pb().str(1, name).msg(2, pb().msg(1, tensor))
}

/// An INT64 initializer with the given dims and values (raw little-endian data).
fn int64_initializer(name: &str, dims: &[i64], values: &[i64]) -> Pb {
    let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let t = dims.iter().fold(pb(), |t, d| t.int(1, *d));
    t.int(2, INT64).str(8, name).bytes(9, &raw)
}

fn node(op: &str, inputs: &[&str], outputs: &[&str], attrs: Vec<Pb>) -> Pb {
    let mut n = pb();
    for i in inputs {
        n = n.str(1, i);
    }
    for o in outputs {
        n = n.str(2, o);
    }
    n = n.str(3, &format!("{op}_{}", outputs[0])).str(4, op);
    for a in attrs {
        n = n.msg(5, a);
    }
    n
}

/// The ONNX bytes of the token-counting cross-encoder: logits = count of `token_id` in the
/// pair's `input_ids` (opset 13: Equal → Cast → ReduceSum over the sequence, keepdims).
pub fn token_counter_onnx(token_id: i64) -> Vec<u8> {
    let graph = pb()
        .msg(1, node("Equal", &["input_ids", "k"], &["hit"], vec![]))
        .msg(
            1,
            node(
                "Cast",
                &["hit"],
                &["hitf"],
                vec![pb().str(1, "to").int(20, ATTR_INT).int(3, FLOAT)],
            ),
        )
        .msg(
            1,
            node(
                "ReduceSum",
                &["hitf", "axes"],
                &["logits"],
                vec![pb().str(1, "keepdims").int(20, ATTR_INT).int(3, 1)],
            ),
        )
        .str(2, "token_counter")
        .msg(5, int64_initializer("k", &[], &[token_id]))
        .msg(5, int64_initializer("axes", &[1], &[1]))
        .msg(11, tensor_info("input_ids", INT64, &["batch", "seq"]))
        .msg(11, tensor_info("attention_mask", INT64, &["batch", "seq"]))
        .msg(11, tensor_info("token_type_ids", INT64, &["batch", "seq"]))
        .msg(12, tensor_info("logits", FLOAT, &["batch", "1"]));
    pb().int(1, 8)
        .str(2, "nyaya-tests")
        .msg(7, graph)
        .msg(8, pb().str(1, "").int(2, 13))
        .0
}

/// A reranker folder in `dir`: the tiny model counting `word` (a whole token of the bundled
/// MiniLM vocabulary), that model's tokenizer files, and `nyaya-reranker.json`.
pub fn write_token_counter(dir: &Path, tokenizer_dir: &Path, word: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for f in [
        "tokenizer.json",
        "config.json",
        "special_tokens_map.json",
        "tokenizer_config.json",
    ] {
        std::fs::copy(tokenizer_dir.join(f), dir.join(f)).unwrap();
    }
    let tokenizer: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tokenizer_dir.join("tokenizer.json")).unwrap())
            .unwrap();
    let id = tokenizer["model"]["vocab"][word]
        .as_i64()
        .unwrap_or_else(|| panic!("{word:?} is not one token of the vocabulary"));
    std::fs::write(dir.join("model.onnx"), token_counter_onnx(id)).unwrap();
    std::fs::write(
        dir.join("nyaya-reranker.json"),
        format!(
            r#"{{"id": "tests/token-counter-{word}", "onnx": "model.onnx", "max_tokens": 256}}"#
        ),
    )
    .unwrap();
    dir.to_path_buf()
}

//! Writes an ONNX model (its protobuf encoding) from code: the little of the format that a
//! transformer encoder built in memory needs (nodes with int, float and ints attributes; raw
//! tensor initialisers; one input and one output). `embed::e5_graph` builds multilingual-e5 with
//! it, so no Python toolchain or converted model file is needed at setup.
//!
//! Field numbers are `onnx.proto`'s (ModelProto, GraphProto, NodeProto, AttributeProto,
//! TensorProto, ValueInfoProto, TypeProto); ONNX is proto2, so repeated numbers are written
//! unpacked, one key per value.

/// A tensor's element type (`TensorProto.DataType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataType {
    Float = 1,
    Int8 = 3,
    Int64 = 7,
}

/// One dimension of a graph input or output: fixed, or named and free.
#[derive(Debug, Clone, Copy)]
pub enum Dim<'a> {
    Fixed(i64),
    Named(&'a str),
}

/// A node attribute.
#[derive(Debug, Clone, Copy)]
pub enum Attr<'a> {
    Int(&'a str, i64),
    Float(&'a str, f32),
    Ints(&'a str, &'a [i64]),
}

/// A graph being built: nodes and initialisers, encoded as they are added.
#[derive(Default)]
pub struct Graph {
    nodes: Vec<u8>,
    initializers: Vec<u8>,
    names: usize,
}

/// The ONNX operator set the graphs are written against (LayerNormalization is 17's).
pub const OPSET: i64 = 17;
/// The IR version of that operator set.
const IR_VERSION: i64 = 8;

impl Graph {
    /// A fresh name for a value.
    fn fresh(&mut self) -> String {
        self.names += 1;
        format!("v{}", self.names)
    }

    /// Adds an initialiser; returns its name.
    pub fn tensor(&mut self, name: &str, dtype: DataType, dims: &[i64], raw: &[u8]) -> String {
        let mut t = Vec::with_capacity(raw.len() + 64);
        for d in dims {
            int_field(&mut t, 1, *d);
        }
        int_field(&mut t, 2, dtype as i64);
        bytes_field(&mut t, 8, name.as_bytes());
        bytes_field(&mut t, 9, raw);
        bytes_field(&mut self.initializers, 5, &t);
        name.to_string()
    }

    /// A float initialiser, little-endian as ONNX's raw data is.
    pub fn floats(&mut self, name: &str, dims: &[i64], values: &[f32]) -> String {
        let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.tensor(name, DataType::Float, dims, &raw)
    }

    /// An int64 initialiser (shapes, axes).
    pub fn int64s(&mut self, name: &str, dims: &[i64], values: &[i64]) -> String {
        let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.tensor(name, DataType::Int64, dims, &raw)
    }

    /// An int8 initialiser.
    pub fn int8s(&mut self, name: &str, dims: &[i64], values: &[i8]) -> String {
        let raw: Vec<u8> = values.iter().map(|v| v.to_le_bytes()[0]).collect();
        self.tensor(name, DataType::Int8, dims, &raw)
    }

    /// Adds a node with one output; returns the output's name.
    pub fn node(&mut self, op: &str, inputs: &[&str], attrs: &[Attr]) -> String {
        self.node_n(op, inputs, 1, attrs).remove(0)
    }

    /// Adds a node with `outputs` outputs; returns their names.
    pub fn node_n(
        &mut self,
        op: &str,
        inputs: &[&str],
        outputs: usize,
        attrs: &[Attr],
    ) -> Vec<String> {
        let outs: Vec<String> = (0..outputs).map(|_| self.fresh()).collect();
        let mut n = Vec::new();
        for i in inputs {
            bytes_field(&mut n, 1, i.as_bytes());
        }
        for o in &outs {
            bytes_field(&mut n, 2, o.as_bytes());
        }
        bytes_field(&mut n, 4, op.as_bytes());
        for a in attrs {
            bytes_field(&mut n, 5, &attribute(a));
        }
        bytes_field(&mut self.nodes, 1, &n);
        outs
    }

    /// The model: this graph with `input` as its one input and `output` (a value a node made)
    /// as its one output, both float tensors of the given shapes.
    pub fn model(self, input: (&str, &[Dim]), output: (&str, &[Dim])) -> Vec<u8> {
        let mut g = self.nodes;
        bytes_field(&mut g, 2, b"graph");
        g.extend_from_slice(&self.initializers);
        bytes_field(&mut g, 11, &value_info(input.0, input.1));
        bytes_field(&mut g, 12, &value_info(output.0, output.1));
        let mut m = Vec::with_capacity(g.len() + 64);
        int_field(&mut m, 1, IR_VERSION);
        bytes_field(&mut m, 2, b"nyaya");
        bytes_field(&mut m, 7, &g);
        let mut opset = Vec::new();
        bytes_field(&mut opset, 1, b"");
        int_field(&mut opset, 2, OPSET);
        bytes_field(&mut m, 8, &opset);
        m
    }
}

fn attribute(a: &Attr) -> Vec<u8> {
    let mut out = Vec::new();
    match a {
        Attr::Float(name, f) => {
            bytes_field(&mut out, 1, name.as_bytes());
            key(&mut out, 2, 5);
            out.extend_from_slice(&f.to_le_bytes());
            int_field(&mut out, 20, 1);
        }
        Attr::Int(name, i) => {
            bytes_field(&mut out, 1, name.as_bytes());
            int_field(&mut out, 3, *i);
            int_field(&mut out, 20, 2);
        }
        Attr::Ints(name, is) => {
            bytes_field(&mut out, 1, name.as_bytes());
            for i in *is {
                int_field(&mut out, 8, *i);
            }
            int_field(&mut out, 20, 7);
        }
    }
    out
}

/// A float tensor's ValueInfoProto.
fn value_info(name: &str, dims: &[Dim]) -> Vec<u8> {
    let mut shape = Vec::new();
    for d in dims {
        let mut dim = Vec::new();
        match d {
            Dim::Fixed(v) => int_field(&mut dim, 1, *v),
            Dim::Named(p) => bytes_field(&mut dim, 2, p.as_bytes()),
        }
        bytes_field(&mut shape, 1, &dim);
    }
    let mut tensor = Vec::new();
    int_field(&mut tensor, 1, DataType::Float as i64);
    bytes_field(&mut tensor, 2, &shape);
    let mut ty = Vec::new();
    bytes_field(&mut ty, 1, &tensor);
    let mut out = Vec::new();
    bytes_field(&mut out, 1, name.as_bytes());
    bytes_field(&mut out, 2, &ty);
    out
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn key(out: &mut Vec<u8>, field: u32, wire: u8) {
    varint(out, (u64::from(field) << 3) | u64::from(wire));
}

/// A varint field; a negative int64 is its two's complement, ten bytes long.
fn int_field(out: &mut Vec<u8>, field: u32, v: i64) {
    key(out, field, 0);
    varint(out, v as u64);
}

fn bytes_field(out: &mut Vec<u8>, field: u32, bytes: &[u8]) {
    key(out, field, 2);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_are_protobufs() {
        let enc = |v: i64| {
            let mut b = Vec::new();
            varint(&mut b, v as u64);
            b
        };
        assert_eq!(enc(1), [1]);
        assert_eq!(enc(300), [0xAC, 0x02]);
        // -1 as int64: ten bytes, all continuation but the last.
        assert_eq!(
            enc(-1),
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        );
    }

    #[test]
    fn a_node_is_encoded_with_its_inputs_outputs_and_attributes() {
        let mut g = Graph::default();
        let out = g.node("Softmax", &["x"], &[Attr::Int("axis", -1)]);
        assert_eq!(out, "v1");
        // NodeProto inside GraphProto.node (field 1, length-delimited).
        let n = &g.nodes;
        assert_eq!(n[0], 0x0A);
        let body = &n[2..];
        assert_eq!(body.len(), usize::from(n[1]));
        assert!(body.starts_with(&[0x0A, 1, b'x', 0x12, 2, b'v', b'1', 0x22, 7]));
        assert!(body.windows(7).any(|w| w == b"Softmax"));
    }
}

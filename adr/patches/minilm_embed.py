# MiniLM-L6 (the bundled int8 ONNX model that `make setup` installs) through onnxruntime,
# mean-pooled and normalised as the service embeds: the offline embedder the stop-59
# measurement scripts beside this file import. Needs numpy, tokenizers, onnxruntime (pip).
import pathlib
import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

D = pathlib.Path(__file__).resolve().parents[2] / '.cache/models/all-minilm-l6-v2'
tok = Tokenizer.from_file(str(D / 'tokenizer.json'))
tok.enable_truncation(256)
tok.enable_padding()
so = ort.SessionOptions()
so.intra_op_num_threads = 1
sess = ort.InferenceSession(str(D / 'model.onnx'), so)
names = [i.name for i in sess.get_inputs()]


def embed(texts, bs=64):
    out = []
    for i in range(0, len(texts), bs):
        enc = tok.encode_batch(texts[i:i + bs])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        m = np.array([e.attention_mask for e in enc], dtype=np.int64)
        feed = {'input_ids': ids, 'attention_mask': m}
        if 'token_type_ids' in names:
            feed['token_type_ids'] = np.zeros_like(ids)
        h = sess.run(None, feed)[0]
        v = (h * m[:, :, None]).sum(1) / m.sum(1, keepdims=True)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        out.append(v)
    return np.vstack(out).astype(np.float32)

